// StateSyncClient against a scripted fake WebSocket: base checks, resume
// with `since`, epoch changes, dispatch outcomes and focused observers.
// The real server is exercised by the browser tests (Tests/StateSyncServerTests/Browser).
import { test } from "node:test";
import assert from "node:assert/strict";
import { StateSyncClient, StateSyncError } from "../statesync.js";

class FakeSocket {
  static all = [];
  constructor(url, protocols) {
    this.url = url;
    this.protocols = protocols;
    this.sent = [];
    FakeSocket.all.push(this);
    queueMicrotask(() => this.onopen?.());
  }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() { queueMicrotask(() => this.onclose?.({ code: 1000 })); }
  serve(message) { this.onmessage({ data: JSON.stringify(message) }); }
  drop() { this.onclose({ code: 1006 }); }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const welcome = (epoch, rev) => ({ type: "welcome", session: "s-1", epoch, rev, role: "writer", server: "test" });

function makeClient() {
  FakeSocket.all = [];
  return new StateSyncClient("ws://test/sync", { WebSocket: FakeSocket, name: "t", backoff: { initialMs: 1, maxMs: 2 } });
}

test("hello first, then snapshot and patches with base checks; a gap re-subscribes", async () => {
  const client = makeClient();
  await tick();
  const socket = FakeSocket.all[0];
  assert.deepEqual(socket.protocols, ["statesync.v1"]);
  assert.equal(socket.sent[0].type, "hello");
  assert.equal(socket.sent[0].name, "t");
  socket.serve(welcome("e-1", 4));
  assert.equal(client.connection, "open");
  const seen = [];
  const subscription = client.subscribe("/todos", (value, rev) => seen.push([value, rev]));
  assert.deepEqual(socket.sent.at(-1), { type: "subscribe", id: subscription.id, path: "/todos" });
  socket.serve({ type: "snapshot", id: subscription.id, rev: 4, value: [] });
  socket.serve({ type: "patch", id: subscription.id, base: 4, rev: 5, ops: [{ op: "add", path: "/0", value: { id: "t5", title: "Milk" } }] });
  assert.deepEqual(seen.at(-1), [[{ id: "t5", title: "Milk" }], 5]);
  socket.serve({ type: "patch", id: subscription.id, base: 7, rev: 8, ops: [{ op: "remove", path: "/0" }] });
  assert.deepEqual(socket.sent.at(-1), { type: "subscribe", id: subscription.id, path: "/todos" });
  assert.equal(seen.length, 2, "a patch after a gap is not applied");
  client.close();
});

test("reconnects with since in the same epoch, and starts over in a new epoch", async () => {
  const client = makeClient();
  await tick();
  let socket = FakeSocket.all[0];
  socket.serve(welcome("e-1", 1));
  const subscription = client.subscribe("/counters", () => {});
  socket.serve({ type: "snapshot", id: subscription.id, rev: 9, value: { hits: 1 } });
  const states = [];
  client.onConnection((state) => states.push(state));
  socket.drop();
  assert.equal(client.connection, "reconnecting");
  await new Promise((resolve) => setTimeout(resolve, 20));
  socket = FakeSocket.all[1];
  assert.ok(socket, "reconnected");
  socket.serve(welcome("e-1", 12));
  assert.deepEqual(socket.sent.at(-1), { type: "subscribe", id: subscription.id, path: "/counters", since: 9 });
  socket.drop();
  await new Promise((resolve) => setTimeout(resolve, 20));
  socket = FakeSocket.all[2];
  socket.serve(welcome("e-2", 3));
  assert.deepEqual(socket.sent.at(-1), { type: "subscribe", id: subscription.id, path: "/counters" });
  assert.equal(client.rev, 3, "revisions of the old epoch are forgotten");
  assert.deepEqual(states.slice(0, 3), ["open", "reconnecting", "open"]);
  client.close();
});

test("dispatch resolves with the ack, rejects with code and message, and is re-sent after a reconnect", async () => {
  const client = makeClient();
  await tick();
  let socket = FakeSocket.all[0];
  socket.serve(welcome("e-1", 1));
  const accepted = client.dispatch({ type: "addTodo", title: "Milk" });
  const sent = socket.sent.at(-1);
  assert.equal(sent.type, "dispatch");
  socket.serve({ type: "ack", id: sent.id, rev: 2 });
  assert.deepEqual(await accepted, { rev: 2 });
  const rejected = client.dispatch({ type: "toggleTodo", id: "nope" });
  socket.serve({ type: "reject", id: socket.sent.at(-1).id, code: "not_found", message: "no todo with id nope" });
  await assert.rejects(rejected, (error) => error instanceof StateSyncError && error.code === "not_found" && error.detail === "no todo with id nope");
  const retried = client.dispatch({ type: "increment", counter: "hits" });
  const first = socket.sent.at(-1);
  socket.drop();
  await new Promise((resolve) => setTimeout(resolve, 20));
  socket = FakeSocket.all[1];
  socket.serve(welcome("e-1", 3));
  assert.deepEqual(socket.sent.at(-1), first, "the same id again: exactly-once on the server");
  assert.equal(socket.sent[0].clientId, FakeSocket.all[0].sent[0].clientId, "one clientId across reconnects");
  socket.serve({ type: "ack", id: first.id, rev: 4 });
  assert.deepEqual(await retried, { rev: 4 });
  client.close();
});

test("unavailable for a dispatch re-sent after a drop is not its outcome: it is sent again until decided", async () => {
  const client = makeClient();
  await tick();
  let socket = FakeSocket.all[0];
  socket.serve(welcome("e-1", 1));
  const inDoubt = client.dispatch({ type: "increment", counter: "hits" });
  const first = socket.sent.at(-1);
  socket.drop(); // unanswered: the server may have stored it
  await new Promise((resolve) => setTimeout(resolve, 20));
  socket = FakeSocket.all[1];
  socket.serve(welcome("e-1", 1));
  assert.deepEqual(socket.sent.at(-1), first);
  socket.serve({ type: "reject", id: first.id, code: "unavailable", message: "the server cannot store actions right now" });
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(socket.sent.at(-1), first, "sent again after the backoff");
  socket.serve({ type: "ack", id: first.id, rev: 7 });
  assert.deepEqual(await inDoubt, { rev: 7 });
  const fresh = client.dispatch({ type: "increment", counter: "hits" });
  socket.serve({ type: "reject", id: socket.sent.at(-1).id, code: "unavailable", message: "the server cannot store actions right now" });
  await assert.rejects(fresh, (error) => error instanceof StateSyncError && error.code === "unavailable", "a first send fails at once");
  client.close();
});

test("observe a slice below a subscription: called on its changes only", async () => {
  const client = makeClient();
  await tick();
  const socket = FakeSocket.all[0];
  socket.serve(welcome("e-1", 1));
  const subscription = client.subscribe("/todos");
  const titles = [];
  client.observe("/todos/0/title", (title) => titles.push(title));
  assert.equal(socket.sent.filter((m) => m.type === "subscribe").length, 1, "no second subscription");
  socket.serve({ type: "snapshot", id: subscription.id, rev: 1, value: [{ id: "t1", title: "Milk", done: false }] });
  socket.serve({ type: "patch", id: subscription.id, base: 1, rev: 2, ops: [{ op: "replace", path: "/0/done", value: true }] });
  socket.serve({ type: "patch", id: subscription.id, base: 2, rev: 3, ops: [{ op: "replace", path: "/0/title", value: "Oat milk" }] });
  socket.serve({ type: "patch", id: subscription.id, base: 3, rev: 4, ops: [{ op: "remove", path: "/0" }] });
  assert.deepEqual(titles, ["Milk", "Oat milk", null]);
  const hits = [];
  const stop = client.observe("/counters/hits", (value) => hits.push(value));
  const own = socket.sent.at(-1);
  assert.deepEqual({ type: own.type, path: own.path }, { type: "subscribe", path: "/counters/hits" });
  socket.serve({ type: "snapshot", id: own.id, rev: 4, value: 7 });
  assert.deepEqual(hits, [7]);
  stop();
  assert.deepEqual(socket.sent.at(-1), { type: "unsubscribe", id: own.id });
  client.close();
});

test("an unauthorized hello stops the client instead of retrying", async () => {
  const client = makeClient();
  await tick();
  const ready = client.ready();
  FakeSocket.all[0].serve({ type: "error", code: "unauthorized", message: "a token is required" });
  await assert.rejects(ready, /unauthorized/);
  assert.equal(client.connection, "closed");
});

test("hello declares the schema version; upgrade_required stops the client, schema_too_new moves to the next node", async () => {
  FakeSocket.all = [];
  const options = { WebSocket: FakeSocket, schemaVersion: 2, backoff: { initialMs: 1, maxMs: 2 } };
  const client = new StateSyncClient(["ws://old/sync", "ws://new/sync"], options);
  await tick();
  assert.equal(FakeSocket.all[0].sent[0].schemaVersion, 2);
  FakeSocket.all[0].serve({ type: "error", code: "schema_too_new", message: "this node serves version 1" });
  FakeSocket.all[0].drop();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(FakeSocket.all[1].url, "ws://new/sync", "the next node");
  assert.notEqual(client.connection, "closed");
  const ready = client.ready();
  FakeSocket.all[1].serve({ type: "error", code: "upgrade_required", message: "this server accepts version 3" });
  await assert.rejects(ready, /upgrade_required/);
  assert.equal(client.connection, "closed");
  assert.throws(() => new StateSyncClient("ws://x/sync", { ...options, schemaVersion: 0 }), /options.schemaVersion must be an integer from 1/);
});

test("action ids carry a random per-instance prefix: a second instance with a saved clientId never reuses one", async () => {
  FakeSocket.all = [];
  const options = { WebSocket: FakeSocket, clientId: "c-saved", backoff: { initialMs: 1, maxMs: 2 } };
  const first = new StateSyncClient("ws://test/sync", options);
  const second = new StateSyncClient("ws://test/sync", options);
  await tick();
  const [firstSocket, secondSocket] = FakeSocket.all;
  firstSocket.serve(welcome("e-1", 1));
  secondSocket.serve(welcome("e-1", 1));
  assert.equal(firstSocket.sent[0].clientId, "c-saved");
  assert.equal(secondSocket.sent[0].clientId, "c-saved");
  // Unanswered here: close() rejects them with "closed", which is expected.
  const pending = [
    first.dispatch({ type: "increment", counter: "hits" }),
    first.dispatch({ type: "increment", counter: "hits" }),
    second.dispatch({ type: "increment", counter: "hits" }),
  ].map((promise) => promise.catch((error) => error.code));
  const firstIds = firstSocket.sent.filter((m) => m.type === "dispatch").map((m) => m.id);
  const secondIds = secondSocket.sent.filter((m) => m.type === "dispatch").map((m) => m.id);
  for (const id of [...firstIds, ...secondIds]) assert.match(id, /^[0-9a-f]{12}-a\d+$/);
  assert.equal(firstIds[0], `${first.actionIdPrefix}-a1`);
  assert.equal(firstIds[1], `${first.actionIdPrefix}-a2`);
  assert.equal(secondIds[0], `${second.actionIdPrefix}-a1`);
  assert.notEqual(first.actionIdPrefix, second.actionIdPrefix);
  assert.ok(!firstIds.includes(secondIds[0]), "the second instance's first id is not the first instance's");
  first.close();
  second.close();
  assert.deepEqual(await Promise.all(pending), ["closed", "closed", "closed"]);
});

test("several URLs: a drop moves to the next node, which resumes with since; the backoff grows per round", async () => {
  FakeSocket.all = [];
  const client = new StateSyncClient("ws://a/sync, ws://b/sync", { WebSocket: FakeSocket, backoff: { initialMs: 1, maxMs: 2 } });
  assert.deepEqual(client.urls, ["ws://a/sync", "ws://b/sync"]);
  await tick();
  let socket = FakeSocket.all[0];
  assert.equal(socket.url, "ws://a/sync");
  socket.serve(welcome("e-1", 1));
  const subscription = client.subscribe("/counters", () => {});
  socket.serve({ type: "snapshot", id: subscription.id, rev: 5, value: { hits: 1 } });
  socket.drop();
  await new Promise((resolve) => setTimeout(resolve, 20));
  socket = FakeSocket.all[1];
  assert.equal(socket.url, "ws://b/sync");
  assert.equal(client.url, "ws://b/sync");
  socket.serve(welcome("e-1", 7));
  assert.deepEqual(socket.sent.at(-1), { type: "subscribe", id: subscription.id, path: "/counters", since: 5 });
  socket.drop();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(FakeSocket.all[2].url, "ws://a/sync", "round and round");
  client.close();
  assert.throws(() => new StateSyncClient(" , ", { WebSocket: FakeSocket }), /at least one URL/);
  assert.deepEqual(new StateSyncClient(["ws://x/sync"], { WebSocket: FakeSocket, autoConnect: false }).urls, ["ws://x/sync"]);
});

/** Resolves with FakeSocket.all[index] once the client opened it (bounded in time). */
async function socketNumber(index) {
  const deadline = Date.now() + 5_000;
  while (FakeSocket.all.length <= index) {
    if (Date.now() > deadline) assert.fail(`no socket #${index} within 5 s`);
    await tick();
  }
  await tick(); // its onopen (the hello) runs in a microtask
  return FakeSocket.all[index];
}

test("refreshToken: auth while open; made between hello and welcome, sent after the welcome; a refusal keeps the token in force for later hellos", async () => {
  FakeSocket.all = [];
  const client = new StateSyncClient("ws://test/sync", { WebSocket: FakeSocket, token: "one", backoff: { initialMs: 1, maxMs: 2 } });
  let socket = await socketNumber(0);
  assert.equal(socket.sent[0].token, "one");
  const early = client.refreshToken("two"); // the hello carried "one": not done by this welcome
  socket.serve({ ...welcome("e-1", 1), role: "writer" });
  assert.deepEqual(socket.sent.at(-1), { type: "auth", id: "t1", token: "two" });
  socket.serve({ type: "authorized", id: "t1", role: "reader", expires: 1764291600 });
  await early;
  assert.deepEqual([client.role, client.token], ["reader", "two"]);

  const refused = client.refreshToken("three");
  assert.deepEqual(socket.sent.at(-1), { type: "auth", id: "t2", token: "three" });
  socket.serve({ type: "error", id: "t2", code: "unauthorized", message: "the token was refused: it expired" });
  await assert.rejects(refused, (error) => error instanceof StateSyncError && error.code === "unauthorized");
  assert.deepEqual([client.connection, client.token, client.role, client.lastError], ["open", "two", "reader", null]);

  // Offline: kept for the next hello, done by its welcome; the role is the welcome's.
  socket.drop();
  const offline = client.refreshToken("four");
  socket = await socketNumber(1);
  assert.equal(socket.sent[0].token, "four");
  const grantsNothingInMain = welcome("e-1", 1);
  delete grantsNothingInMain.role;
  socket.serve(grantsNothingInMain);
  await offline;
  assert.equal(client.role, null);
  assert.equal(socket.sent.filter((message) => message.type === "auth").length, 0);

  // A refresh still waiting when the client closes fails with closed; so does one after.
  const waiting = client.refreshToken("five");
  client.close();
  await assert.rejects(waiting, (error) => error.code === "closed");
  await assert.rejects(client.refreshToken("six"), (error) => error.code === "closed");
  assert.throws(() => client.refreshToken(""), /refreshToken's token must be a non-empty string, not ""/);
});

test("a subscription the server ends (a refreshed token no longer grants it) is gone, its onError told forbidden", async () => {
  const client = makeClient();
  const socket = await socketNumber(0);
  socket.serve(welcome("e-1", 1));
  const errors = [];
  const team = client.store("team-1").subscribe("/todos", undefined, (error) => errors.push(error.code));
  socket.serve({ type: "snapshot", store: "team-1", id: team.id, epoch: "e-9", rev: 3, value: [] });
  socket.serve({ type: "unsubscribed", store: "team-1", id: team.id });
  assert.deepEqual(errors, ["forbidden"]);
  team.close(); // already gone: nothing sent
  assert.equal(socket.sent.filter((message) => message.type === "unsubscribe").length, 0);
  client.close();
});
