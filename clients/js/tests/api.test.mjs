// The public surface of statesync.js: what statesync.d.ts declares is what
// the module and its classes have (no underscore internals), state the
// client owns is read-only, and wrong arguments fail at the call with a
// clear message.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as statesync from "../statesync.js";
import { StateSyncClient, StateSyncError } from "../statesync.js";

const declarations = readFileSync(new URL("../statesync.d.ts", import.meta.url), "utf8");

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
const options = { WebSocket: FakeSocket, backoff: { initialMs: 1, maxMs: 2 } };

/** The member names statesync.d.ts declares in `export class NAME`. */
function declaredMembers(name) {
  const body = new RegExp(`^export class ${name}\\b[^\\n]*\\{\\n([\\s\\S]*?)^\\}`, "m").exec(declarations);
  assert.ok(body, `statesync.d.ts declares class ${name}`);
  const members = [...body[1].matchAll(/^ {2}(?:readonly )?(\w+)[?<(:]/gm)].map((match) => match[1]);
  return new Set(members.filter((member) => member !== "constructor"));
}

/** The public member names of `instance`: its own properties and those of its class's prototype. */
function runtimeMembers(instance) {
  const own = Object.keys(instance);
  const inherited = Object.getOwnPropertyNames(Object.getPrototypeOf(instance)).filter((name) => name !== "constructor");
  return new Set([...own, ...inherited]);
}

test("statesync.d.ts declares every export of statesync.js, and nothing more", () => {
  const declared = [...declarations.matchAll(/^export (?:declare )?(?:function|class) (\w+)/gm)].map((match) => match[1]);
  assert.deepEqual(declared.sort(), Object.keys(statesync).sort());
});

test("the classes have exactly the declared members, none private by underscore", async () => {
  FakeSocket.all = [];
  const client = new StateSyncClient("ws://test/sync", options);
  await tick();
  FakeSocket.all[0].serve({ type: "welcome", session: "s-1", epoch: "e-1", rev: 1, role: "writer", server: "test" });
  const mirror = client.optimistic((state) => state);
  const store = client.store("team-42");
  for (const [name, instance] of [["StateSyncClient", client], ["OptimisticMirror", mirror], ["StateSyncStore", store]]) {
    const members = runtimeMembers(instance);
    assert.deepEqual([...members].filter((member) => member.startsWith("_")), [], `${name} has underscore members`);
    assert.deepEqual([...members].sort(), [...declaredMembers(name)].sort(), `${name}'s members and its declaration`);
  }
  const subscription = client.subscribe("/todos");
  assert.deepEqual(Object.keys(subscription).sort(), ["close", "id", "path", "rev", "store", "value"]);
  assert.throws(() => new statesync.StateSyncStore(), /a StateSyncStore is made by client.store\(name\)/);
  mirror.close();
  client.close();
});

test("what the client owns is read-only: connection, welcome, rev, a subscription's mirror, a store's name and rev", async () => {
  FakeSocket.all = [];
  const client = new StateSyncClient("ws://test/sync", options);
  await tick();
  FakeSocket.all[0].serve({ type: "welcome", session: "s-1", epoch: "e-1", rev: 1, role: "writer", server: "test" });
  const subscription = client.subscribe("/todos");
  FakeSocket.all[0].serve({ type: "snapshot", id: subscription.id, rev: 1, value: ["a"] });
  assert.throws(() => { client.connection = "closed"; }, TypeError);
  assert.throws(() => { client.rev = 7; }, TypeError);
  assert.throws(() => { subscription.rev = 7; }, TypeError);
  assert.throws(() => { subscription.value = []; }, TypeError);
  assert.deepEqual([client.connection, client.rev, subscription.rev, subscription.value], ["open", 1, 1, ["a"]]);
  const mirror = client.optimistic((state) => state);
  assert.throws(() => { mirror.state = {}; }, TypeError);
  const store = client.store("team-42");
  assert.throws(() => { store.name = "other"; }, TypeError);
  assert.throws(() => { store.rev = 7; }, TypeError);
  assert.throws(() => { store.epoch = "e-1"; }, TypeError);
  mirror.close();
  client.close();
});

test("wrong constructor arguments fail at once, naming what is wrong", () => {
  assert.throws(() => new StateSyncClient("http://127.0.0.1:8080/sync", options), /"http:\/\/127.0.0.1:8080\/sync" is not a ws:\/\/ or wss:\/\/ URL/);
  assert.throws(() => new StateSyncClient("127.0.0.1:8080", options), /is not a ws:\/\/ or wss:\/\/ URL|is not a URL/);
  assert.throws(() => new StateSyncClient("sync", options), /"sync" is not a URL \(expected ws:\/\/HOST:PORT\/sync\)/);
  assert.throws(() => new StateSyncClient("ws://x/sync", null), /options must be an object, not null/);
  assert.throws(() => new StateSyncClient("ws://x/sync", { ...options, token: 42 }), /options.token must be a string, not 42/);
  assert.throws(() => new StateSyncClient("ws://x/sync", { ...options, backoff: { initialMs: "fast" } }),
    /options.backoff.initialMs must be a number of milliseconds \(0 or more\), not "fast"/);
  assert.throws(() => new StateSyncClient("ws://x/sync", { ...options, backoff: { maxMs: -1 } }), /options.backoff.maxMs .*, not -1/);
  assert.throws(() => new StateSyncClient("ws://x/sync", { ...options, backoff: 100 }), /options.backoff must be an object \{ initialMs, maxMs \}, not 100/);
  assert.throws(() => new StateSyncClient("ws://x/sync", { WebSocket: "ws" }), /options.WebSocket \(a WebSocket constructor\) must be a function/);
  const global = Object.getOwnPropertyDescriptor(globalThis, "WebSocket");
  Object.defineProperty(globalThis, "WebSocket", { value: undefined, configurable: true, writable: true });
  try {
    assert.throws(() => new StateSyncClient("ws://x/sync"), /no WebSocket here: pass options.WebSocket .*Node 22 or later/);
  } finally {
    if (global) Object.defineProperty(globalThis, "WebSocket", global);
    else delete globalThis.WebSocket;
  }
});

test("wrong callbacks fail at the call, not later in a message handler", async () => {
  FakeSocket.all = [];
  const client = new StateSyncClient("ws://test/sync", options);
  assert.throws(() => client.subscribe("/todos", "render"), /subscribe's callback must be a function, not "render"/);
  assert.throws(() => client.observe("/todos"), /observe's callback must be a function, not undefined/);
  assert.throws(() => client.onConnection(), /onConnection's callback must be a function/);
  assert.throws(() => client.optimistic(), /the optimistic mirror's reducer must be a function, not undefined/);
  assert.throws(() => new statesync.OptimisticMirror({}, (state) => state), /OptimisticMirror needs a StateSyncClient or a StateSyncStore, not an object/);
  assert.throws(() => client.subscribe("todos"), (error) => error instanceof StateSyncError && error.code === "invalid_path");
  assert.throws(() => statesync.applyPatch({}, { op: "add", path: "/a", value: 1 }), /bad_patch: ops must be an array of operations, not an object/);
  client.close();
});

test("an action that does not encode as JSON is refused at once and never sent, now or after a reconnect", async () => {
  FakeSocket.all = [];
  const client = new StateSyncClient("ws://test/sync", options);
  await tick();
  FakeSocket.all[0].serve({ type: "welcome", session: "s-1", epoch: "e-1", rev: 1, role: "writer", server: "test" });
  const cyclic = { type: "addTodo" };
  cyclic.self = cyclic;
  await assert.rejects(client.dispatch(cyclic), (error) => error instanceof StateSyncError && error.code === "invalid_action" &&
    /does not encode as JSON/.test(error.detail));
  await assert.rejects(client.dispatch({ type: "increment", by: 1n }), /invalid_action: the action does not encode as JSON/);
  await assert.rejects(client.dispatch("addTodo"), /invalid_action: an action is an object with a string "type"/);
  FakeSocket.all[0].drop();
  await new Promise((resolve) => setTimeout(resolve, 20));
  const again = FakeSocket.all.at(-1);
  again.serve({ type: "welcome", session: "s-2", epoch: "e-1", rev: 1, role: "writer", server: "test" });
  const sent = FakeSocket.all.flatMap((socket) => socket.sent).filter((message) => message.type === "dispatch");
  assert.deepEqual(sent, [], "nothing was sent");
  assert.equal(client.connection, "open");
  client.close();
});

test("closed before its welcome, or refused, a client nobody awaits raises no unhandled rejection", async () => {
  const unhandled = [];
  const record = (reason) => unhandled.push(reason);
  process.on("unhandledRejection", record);
  try {
    FakeSocket.all = [];
    const closed = new StateSyncClient("ws://test/sync", options);
    closed.close();
    await assert.rejects(closed.ready(), /closed: the client was closed/, "ready() on a closed client tells, instead of waiting forever");
    const refused = new StateSyncClient("ws://test/sync", options);
    await tick();
    FakeSocket.all.at(-1).serve({ type: "error", code: "unauthorized", message: "a token is required" });
    await tick();
    assert.equal(refused.connection, "closed");
    assert.equal(refused.lastError?.code, "unauthorized");
    await assert.rejects(refused.ready(), /unauthorized/, "ready() still tells");
    assert.deepEqual(unhandled.map(String), []);
  } finally {
    process.off("unhandledRejection", record);
  }
});
