// OptimisticMirror against a scripted fake WebSocket: own actions show at
// once, patches rebase them, an ack does not show an action twice, a reject
// rolls back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { StateSyncClient } from "../statesync.js";

class FakeSocket {
  static all = [];
  constructor() {
    this.sent = [];
    FakeSocket.all.push(this);
    queueMicrotask(() => this.onopen?.());
  }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() {}
  serve(message) { this.onmessage({ data: JSON.stringify(message) }); }
  drop() { this.onclose({ code: 1006 }); }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

// A JS port of part of the board's reducer: addTodo and toggleTodo.
function boardReducer(state, action, meta) {
  switch (action.type) {
    case "addTodo":
      if (!action.title) throw new Error("invalid_action");
      state.todos.push({ id: `t${meta.revision}`, title: action.title, done: false });
      return state;
    case "toggleTodo": {
      const todo = state.todos.find((t) => t.id === action.id);
      if (!todo) throw new Error("not_found");
      todo.done = !todo.done;
      return state;
    }
    default:
      return state;
  }
}

async function connected() {
  FakeSocket.all = [];
  const client = new StateSyncClient("ws://test/sync", { WebSocket: FakeSocket, name: "alice", backoff: { initialMs: 1, maxMs: 2 } });
  await tick();
  const socket = FakeSocket.all[0];
  socket.serve({ type: "welcome", session: "s-1", epoch: "e-1", rev: 3, role: "writer", server: "test" });
  const shown = [];
  const mirror = client.optimistic(boardReducer, (state, view) => shown.push({ state, pending: view.pending }));
  const subscribe = socket.sent.at(-1);
  socket.serve({ type: "snapshot", id: subscribe.id, rev: 3, value: { todos: [] } });
  return { client, socket, mirror, shown, subscription: subscribe.id };
}

test("an own action shows at once, and once (not twice) when its patch and ack come", async () => {
  const { client, socket, mirror, shown, subscription } = await connected();
  const acked = mirror.dispatch({ type: "addTodo", title: "Milk" });
  assert.deepEqual(mirror.state.todos, [{ id: "t4", title: "Milk", done: false }], "predicted before any answer");
  assert.equal(shown.at(-1).pending, 1);
  const sent = socket.sent.at(-1);
  assert.equal(sent.type, "dispatch");

  // Another client's todo came first: the prediction is rebased, its id corrected by the server.
  socket.serve({ type: "patch", id: subscription, base: 3, rev: 4, ops: [{ op: "add", path: "/todos/-", value: { id: "t4", title: "Eggs", done: false } }] });
  socket.serve({ type: "patch", id: subscription, base: 4, rev: 5, ops: [{ op: "add", path: "/todos/-", value: { id: "t5", title: "Milk", done: false } }] });
  socket.serve({ type: "ack", id: sent.id, rev: 5 });
  assert.deepEqual(await acked, { rev: 5 });
  assert.deepEqual(mirror.state.todos.map((t) => t.title), ["Eggs", "Milk"]);
  assert.ok(shown.every(({ state }) => state.todos.filter((t) => t.title === "Milk").length <= 1), "Milk was shown twice");
  assert.equal(shown.at(-1).pending, 0);
  client.close();
});

test("a rejected action rolls back", async () => {
  const { client, socket, mirror, shown, subscription } = await connected();
  socket.serve({ type: "patch", id: subscription, base: 3, rev: 4, ops: [{ op: "add", path: "/todos/-", value: { id: "t4", title: "Milk", done: false } }] });
  const toggled = mirror.dispatch({ type: "toggleTodo", id: "t4" });
  assert.equal(mirror.state.todos[0].done, true);
  const sent = socket.sent.at(-1);
  // Removed by someone else first: the server rejects the toggle.
  socket.serve({ type: "patch", id: subscription, base: 4, rev: 5, ops: [{ op: "remove", path: "/todos/0" }] });
  socket.serve({ type: "reject", id: sent.id, code: "not_found", message: "no todo with id t4" });
  await assert.rejects(toggled, (error) => error.code === "not_found");
  assert.deepEqual(mirror.state.todos, []);
  assert.deepEqual(shown.at(-1), { state: { todos: [] }, pending: 0 });
  client.close();
});

test("a patch with no answer behind it is shown after the grace delay", async () => {
  const { client, socket, mirror, shown, subscription } = await connected();
  mirror.dispatch({ type: "addTodo", title: "Milk" }).catch(() => {});
  const before = shown.length;
  socket.serve({ type: "patch", id: subscription, base: 3, rev: 4, ops: [{ op: "add", path: "/todos/-", value: { id: "t4", title: "Eggs", done: false } }] });
  assert.equal(shown.length, before, "held while a dispatch is in flight");
  await new Promise((resolve) => setTimeout(resolve, 80));
  assert.deepEqual(shown.at(-1).state.todos.map((t) => t.title), ["Eggs", "Milk"]);
  client.close();
});

test("a dispatch re-sent after a drop is not shown twice when the server had applied it", async () => {
  const { client, socket, mirror, shown } = await connected();
  const acked = mirror.dispatch({ type: "addTodo", title: "Milk" });
  const sent = socket.sent.at(-1);
  socket.drop();                                   // applied by the server, its ack lost
  await new Promise((resolve) => setTimeout(resolve, 20));
  const again = FakeSocket.all.at(-1);
  assert.notEqual(again, socket, "reconnected");
  again.serve({ type: "welcome", session: "s-2", epoch: "e-1", rev: 4, role: "writer", server: "test" });
  assert.deepEqual(again.sent.filter((m) => m.type === "dispatch").map((m) => m.id), [sent.id], "re-sent with its id");
  const resubscribe = again.sent.find((m) => m.type === "subscribe");
  again.serve({ type: "patch", id: resubscribe.id, base: 3, rev: 4, ops: [{ op: "add", path: "/todos/-", value: { id: "t4", title: "Milk", done: false } }] });
  await new Promise((resolve) => setTimeout(resolve, 80));   // the ack of the re-sent dispatch takes a round trip
  assert.deepEqual(mirror.state.todos.map((t) => t.title), ["Milk"]);
  again.serve({ type: "ack", id: sent.id, rev: 4 });
  assert.deepEqual(await acked, { rev: 4 });
  assert.ok(shown.every(({ state }) => state.todos.length <= 1), `Milk was shown twice: ${JSON.stringify(shown)}`);
  assert.deepEqual(mirror.state.todos.map((t) => t.title), ["Milk"]);
  client.close();
});
