// Tokens against a real `statesync serve --jwt-key-file` (HS256 JWTs minted
// here, see server.mjs; the JavaScript twin of clients/python/tests/test_auth.py):
// refreshToken keeps the session and its subscriptions, takes the new role,
// survives a refusal, waits for the next welcome when offline; a store the
// token does not grant is forbidden; an expired token ends the session.
import { test } from "node:test";
import assert from "node:assert/strict";
import { StateSyncClient, StateSyncError } from "../statesync.js";
import { TIMEOUT_MS, mintJWT, recordingWebSocket, until, withJWTServer, within } from "./server.mjs";

const backoff = { initialMs: 50, maxMs: 300 };

/** The StateSyncError `promise` rejects with (fails when it resolves). */
async function refusal(promise, what) {
  const error = await within(promise.then(() => assert.fail(`${what} was not refused`), (error) => error), what);
  assert.ok(error instanceof StateSyncError, `${what}: ${error}`);
  return error;
}

test("a refreshed token keeps the subscription live and takes the new role: a reader's dispatch is then forbidden", { timeout: 2 * TIMEOUT_MS }, async () => {
  await withJWTServer(async (server) => {
    const client = new StateSyncClient(server.url, { backoff, token: mintJWT({ sub: "alice", role: "writer" }) });
    const other = new StateSyncClient(server.url, { backoff, token: mintJWT({ sub: "bob", role: "writer" }) });
    try {
      await within(Promise.all([client.ready(), other.ready()]), "both welcomes");
      assert.equal(client.role, "writer");
      const counters = client.subscribe("/counters");
      await until(() => counters.rev !== null, "the snapshot");

      const reader = mintJWT({ sub: "alice", role: "reader", exp: Math.floor(Date.now() / 1000) + 3600 });
      assert.equal(await within(client.refreshToken(reader), "authorized"), undefined);
      assert.deepEqual([client.role, client.token, client.connection], ["reader", reader, "open"]);

      // Still subscribed: another client's change reaches the mirror.
      const { rev } = await within(other.dispatch({ type: "increment", counter: "hits", by: 2 }), "bob's ack");
      await until(() => counters.rev === rev, "bob's change in alice's mirror");
      assert.deepEqual(counters.value, { hits: 2 });

      // A reader now: its dispatch is refused, and the session goes on.
      const refused = await refusal(client.dispatch({ type: "increment", counter: "hits" }), "a reader's dispatch");
      assert.equal(refused.code, "forbidden");
      assert.equal((await within(client.get("/counters"), "a reader's get")).value.hits, 2);
      assert.equal(client.lastError, null);
    } finally {
      client.close();
      other.close();
    }
  });
});

test("a refused token rejects unauthorized; the connection goes on under the token in force", { timeout: 2 * TIMEOUT_MS }, async () => {
  await withJWTServer(async (server) => {
    const writer = mintJWT({ sub: "alice", role: "writer" });
    const client = new StateSyncClient(server.url, { backoff, token: writer });
    try {
      await within(client.ready(), "the welcome");
      const counters = client.subscribe("/counters");
      await until(() => counters.rev !== null, "the snapshot");
      const forged = mintJWT({ sub: "alice", role: "admin" }, "another-secret-of-at-least-32-bytes!");
      const error = await refusal(client.refreshToken(forged), "a forged token");
      assert.equal(error.code, "unauthorized");
      assert.match(error.detail, /the token was refused/);
      const expired = mintJWT({ sub: "alice", role: "admin", exp: Math.floor(Date.now() / 1000) - 60 });
      assert.equal((await refusal(client.refreshToken(expired), "an expired token")).code, "unauthorized");

      assert.deepEqual([client.connection, client.role, client.token, client.lastError], ["open", "writer", writer, null],
        "still open, still a writer, and later hellos send the token in force");
      const { rev } = await within(client.dispatch({ type: "increment", counter: "hits" }), "a writer's ack");
      assert.equal(counters.rev, rev, "the subscription lives on");
    } finally {
      client.close();
    }
  });
});

test("a store the token grants nothing in is forbidden; one it grants works; a refresh that drops a store ends its subscription", { timeout: 2 * TIMEOUT_MS }, async () => {
  await withJWTServer(async (server) => {
    const client = new StateSyncClient(server.url, { backoff, token: mintJWT({ sub: "carol", stores: { "team-42-*": "writer" } }) });
    try {
      const welcome = await within(client.ready(), "the welcome");
      assert.ok(!("role" in welcome), "no role in main");
      assert.equal(client.role, null);

      const team = client.store("team-42-a");
      const teamErrors = [];
      const teamCounters = team.subscribe("/counters", undefined, (error) => teamErrors.push(error));
      await within(team.dispatch({ type: "increment", counter: "hits" }), "the granted store's ack");
      await until(() => teamCounters.value?.hits === 1, "the granted store's patch");

      assert.equal((await refusal(client.store("lobby").get(""), "a get in lobby")).code, "forbidden");
      assert.equal((await refusal(client.store("lobby").dispatch({ type: "increment", counter: "n" }), "a dispatch to lobby")).code, "forbidden");
      assert.equal((await refusal(client.get("/counters"), "a get in main")).code, "forbidden");
      const mainErrors = [];
      client.subscribe("/todos", undefined, (error) => mainErrors.push(error));
      await until(() => mainErrors.length === 1, "main's refusal of the subscription");
      assert.equal(mainErrors[0].code, "forbidden");
      assert.equal(client.connection, "open");

      // The new token grants main only: team-42-a's subscription ends (`unsubscribed`).
      await within(client.refreshToken(mintJWT({ sub: "carol", stores: { main: "reader" } })), "authorized");
      assert.equal(client.role, "reader");
      await until(() => teamErrors.length === 1, "the end of team-42-a's subscription");
      assert.equal(teamErrors[0].code, "forbidden");
      assert.match(teamErrors[0].detail, /no longer grants/);
      assert.deepEqual((await within(client.get("/counters"), "a get in main")).value, {}, "main is readable now");
    } finally {
      client.close();
    }
  });
});

test("offline, a refreshed token waits for the next hello, which carries it, and resolves on its welcome", { timeout: 3 * TIMEOUT_MS }, async () => {
  await withJWTServer(async (first, start) => {
    const sent = [];
    const writer = mintJWT({ sub: "dave", role: "writer" });
    const client = new StateSyncClient(first.url, { backoff, token: writer, WebSocket: recordingWebSocket(sent) });
    try {
      await within(client.ready(), "the welcome");
      await first.stop();
      await until(() => client.connection === "reconnecting", "the reconnecting state");
      const reader = mintJWT({ sub: "dave", role: "reader" });
      let settled = false;
      const refreshed = client.refreshToken(reader).finally(() => { settled = true; });
      assert.equal(settled, false);
      assert.equal(client.token, reader);
      await start(first.port);
      await within(refreshed, "the refresh, on the next welcome");
      assert.deepEqual([client.connection, client.role], ["open", "reader"]);
      const hellos = sent.filter((message) => message.type === "hello");
      assert.deepEqual(hellos.map((hello) => hello.token), [writer, reader]);
      assert.deepEqual(sent.filter((message) => message.type === "auth"), [], "no auth: the hello carried it");
    } finally {
      client.close();
    }
  });
});

test("when the token in force expires, the server ends the session and the client stops, unauthorized", { timeout: 2 * TIMEOUT_MS }, async () => {
  await withJWTServer(async (server) => {
    const client = new StateSyncClient(server.url, { backoff, token: mintJWT({ sub: "erin", role: "writer", exp: Math.floor(Date.now() / 1000) + 2 }) });
    try {
      await within(client.ready(), "the welcome");
      await until(() => client.connection === "closed", "the end of the session at exp");
      assert.equal(client.lastError?.code, "unauthorized");
      assert.equal((await refusal(client.refreshToken(mintJWT({ sub: "erin", role: "writer" })), "a refresh after the end")).code, "unauthorized");
    } finally {
      client.close();
    }
  });
});
