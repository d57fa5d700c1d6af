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
  const client = new StateSyncClient("ws://test/sync", { WebSocket: FakeSocket, name: "alice" });
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
