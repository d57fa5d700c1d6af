// Many stores over one connection, against a real `statesync serve` (the
// JavaScript twin of clients/python/tests/test_stores.py): each store sees
// only its own changes, ids are per store, names are checked before anything
// is sent, and after a reconnect each store resumes on its own (`since`
// within its own epoch; a new epoch of one store starts only its mirrors over).
//
// The server: see server.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StateSyncClient, StateSyncError } from "../statesync.js";
import { TIMEOUT_MS, freePort, recordingWebSocket, startServer, until, withServer, within } from "./server.mjs";

const backoff = { initialMs: 50, maxMs: 300 };

test("two stores on one connection each see only their own changes; the same ids in both are different things", { timeout: 2 * TIMEOUT_MS }, async () => {
  await withServer(async (server) => {
    const sent = [];
    const client = new StateSyncClient(server.url, { backoff, WebSocket: recordingWebSocket(sent) });
    const other = new StateSyncClient(server.url, { backoff });
    try {
      await within(client.ready(), "the welcome");
      const team = client.store("team-42");
      assert.equal(client.store("team-42"), team, "one object per name");
      assert.equal(client.store("main").name, "main");
      const mainSeen = [];
      const teamSeen = [];
      const mainCounters = client.subscribe("/counters", (value) => mainSeen.push(value));
      const teamCounters = team.subscribe("/counters", (value) => teamSeen.push(value));
      assert.equal(mainCounters.id, teamCounters.id, "ids are per store: both stores' first subscription is s1");
      assert.deepEqual([mainCounters.store, teamCounters.store], ["main", "team-42"]);
      await until(() => mainCounters.rev !== null && teamCounters.rev !== null, "both snapshots");
      assert.match(team.epoch ?? "", /^e-/, "the store's epoch came with its snapshot");
      assert.equal(client.store("main").epoch, client.welcome.epoch);
      const teamHits = [];
      const stopObserving = team.observe("/counters/hits", (hits) => teamHits.push(hits));

      // Patches come before the ack on the dispatching connection: a patch
      // routed to the wrong mirror would show by the time the dispatch resolves.
      const { rev: teamRev } = await within(team.dispatch({ type: "increment", counter: "hits", by: 2 }), "team-42's ack");
      assert.deepEqual(teamCounters.value, { hits: 2 });
      assert.equal(teamCounters.rev, teamRev);
      assert.equal(team.rev, teamRev);
      assert.deepEqual(mainCounters.value, {}, "main did not change");
      await within(client.dispatch({ type: "increment", counter: "hits", by: 5 }), "main's ack");
      assert.deepEqual(mainCounters.value, { hits: 5 });
      assert.deepEqual(teamCounters.value, { hits: 2 }, "team-42 did not change");
      assert.deepEqual(mainSeen, [{}, { hits: 5 }]);
      assert.deepEqual(teamSeen, [{}, { hits: 2 }]);
      assert.deepEqual(teamHits, [null, 2]);
      assert.deepEqual(team.peek("/counters/hits"), 2);
      assert.deepEqual(client.peek("/counters/hits"), 5);

      // The same action id in two stores is two actions, both applied.
      const dispatches = sent.filter((message) => message.type === "dispatch");
      assert.deepEqual(dispatches.map((message) => message.store ?? "main"), ["team-42", "main"]);
      assert.equal(dispatches[0].id, dispatches[1].id, "the same action id in both stores");
      assert.ok(!("store" in dispatches[1]), "main's messages do not name it");

      // Another connection reads each store as this one wrote it.
      assert.deepEqual((await within(other.get("/counters"), "main's counters")).value, { hits: 5 });
      assert.deepEqual((await within(other.store("team-42").get("/counters"), "team-42's counters")).value, { hits: 2 });
      const otherTeam = other.store("team-42");
      await within(otherTeam.dispatch({ type: "increment", counter: "hits" }), "the other client's ack");
      await until(() => teamCounters.value?.hits === 3, "the other client's change in team-42");
      assert.deepEqual(mainCounters.value, { hits: 5 });

      // A refusal in one store (same id s2 in both) ends only that store's
      // subscription. (This server's error does not name team-42: the client
      // routes it to the store awaiting an answer with that id.)
      const refusals = [];
      const mainTodos = client.subscribe("/todos");
      await until(() => mainTodos.rev !== null, "main's /todos");
      const teamBad = team.subscribe(`/${"x/".repeat(40)}x`, undefined, (error) => refusals.push(error.code));
      assert.equal(mainTodos.id, teamBad.id);
      await until(() => refusals.length === 1, "team-42's refusal");
      assert.deepEqual(refusals, ["invalid_path"]);
      await within(client.dispatch({ type: "addTodo", title: "Milk" }), "main's addTodo");
      assert.equal(mainTodos.value.length, 1, "main's s2 lives on");

      // Unsubscribing s1 in team-42 leaves s1 in main.
      teamCounters.close();
      stopObserving();
      await within(otherTeam.dispatch({ type: "increment", counter: "hits" }), "a change team-42 no longer hears");
      await within(other.dispatch({ type: "increment", counter: "hits" }), "a change of main");
      await until(() => mainCounters.value?.hits === 6, "main's s1 still hears");
      assert.deepEqual(teamCounters.value, { hits: 3 }, "team-42's s1 is closed");
      const unsubscribes = sent.filter((message) => message.type === "unsubscribe");
      assert.deepEqual(unsubscribes, [{ type: "unsubscribe", store: "team-42", id: "s1" }]);
    } finally {
      client.close();
      other.close();
    }
  });
});

test("an optimistic mirror of a store shows that store's own dispatches at once, and only them", { timeout: 2 * TIMEOUT_MS }, async () => {
  await withServer(async (server) => {
    const client = new StateSyncClient(server.url, { backoff });
    try {
      await within(client.ready(), "the welcome");
      const team = client.store("team-42");
      const counting = (state, action) => {
        if (action.type === "increment") state.counters[action.counter] = (state.counters[action.counter] ?? 0) + (action.by ?? 1);
        return state;
      };
      const teamMirror = team.optimistic(counting);
      const mainMirror = client.optimistic(counting);
      assert.deepEqual([teamMirror.store, mainMirror.store, teamMirror.client], ["team-42", "main", client]);
      await until(() => teamMirror.confirmed !== undefined && mainMirror.confirmed !== undefined, "both snapshots");
      const acked = teamMirror.dispatch({ type: "increment", counter: "hits", by: 3 });
      assert.equal(teamMirror.state.counters.hits, 3, "shown at once in team-42's mirror");
      assert.equal(teamMirror.pending.length, 1);
      assert.equal(mainMirror.pending.length, 0, "not pending in main's");
      assert.equal(mainMirror.state.counters.hits, undefined, "not predicted in main's");
      const { rev } = await within(acked, "team-42's ack");
      assert.deepEqual([teamMirror.pending.length, teamMirror.rev, teamMirror.confirmed.counters.hits], [0, rev, 3]);
      assert.equal(mainMirror.confirmed.counters.hits, undefined, "main did not change");
      teamMirror.close();
      mainMirror.close();
    } finally {
      client.close();
    }
  });
});

test("a store name against the rule is refused at the call, naming the rule; nothing is sent", { timeout: 2 * TIMEOUT_MS }, async () => {
  await withServer(async (server) => {
    const sent = [];
    const client = new StateSyncClient(server.url, { backoff, WebSocket: recordingWebSocket(sent) });
    try {
      await within(client.ready(), "the welcome");
      for (const name of ["Team", "", "-team", ".team", "_team", "team 42", "team/42", "t".repeat(65), "täm"]) {
        assert.throws(() => client.store(name), (error) => error instanceof StateSyncError && error.code === "invalid_store" &&
          error.detail === `invalid store ${JSON.stringify(name)}: a store name is 1 to 64 characters of a-z, 0-9, ".", "_" and "-", starting with a letter or a digit`,
        `${JSON.stringify(name)} is refused`);
      }
      assert.throws(() => client.store(42), /TypeError|a store name must be a string, not 42/);
      assert.throws(() => client.store(), /a store name must be a string, not undefined/);
      assert.deepEqual(sent.filter((message) => message.type !== "hello"), [], "nothing was sent");
      // The names at the rule's edges are the server's too.
      for (const name of ["0", "t".repeat(64), "a.b_c-d"]) {
        const { value } = await within(client.store(name).get("/counters"), `a get in ${name}`);
        assert.deepEqual(value, {}, `${name} is a store of the server`);
      }
    } finally {
      client.close();
    }
  });
});

test("after a reconnect each store resumes with its own since, and sees what changed meanwhile", { timeout: 2 * TIMEOUT_MS }, async () => {
  const port = await freePort();
  const data = mkdtempSync(join(tmpdir(), "statesync-stores-"));
  const args = ["--data", data, "--port", String(port)];
  let server = await startServer(args);
  const sent = [];
  const client = new StateSyncClient(server.url, { backoff, WebSocket: recordingWebSocket(sent) });
  try {
    await within(client.ready(), "the welcome");
    const team = client.store("team-42");
    const mainCounters = client.subscribe("/counters");
    const teamCounters = team.subscribe("/counters");
    for (let i = 0; i < 4; i++) await within(team.dispatch({ type: "increment", counter: "hits" }), "team-42's ack");
    await within(client.dispatch({ type: "increment", counter: "hits", by: 10 }), "main's ack");
    const mainRev = mainCounters.rev;
    const teamRev = teamCounters.rev;
    const mainEpoch = client.welcome.epoch;
    const teamEpoch = team.epoch;
    assert.notEqual(mainRev, teamRev, "the stores are at different revisions");

    await server.stop();
    await until(() => client.connection === "reconnecting", "the reconnecting state");
    const pending = team.dispatch({ type: "increment", counter: "hits", by: 100 }); // sent after the reconnect
    const before = sent.length;
    server = await startServer(args);
    const { rev } = await within(pending, "team-42's dispatch made while away");
    await until(() => teamCounters.rev === rev, "team-42's resumed subscription");
    assert.equal(client.welcome.epoch, mainEpoch);
    assert.equal(team.epoch, teamEpoch, "the same data: the same epoch of team-42");
    assert.deepEqual(teamCounters.value, { hits: 104 });
    assert.deepEqual(mainCounters.value, { hits: 10 });

    const again = sent.slice(before);
    const subscribes = again.filter((message) => message.type === "subscribe");
    assert.deepEqual(subscribes.find((message) => message.store === undefined),
      { type: "subscribe", id: mainCounters.id, path: "/counters", since: mainRev }, "main resumed from main's revision");
    assert.deepEqual(subscribes.find((message) => message.store === "team-42"),
      { type: "subscribe", store: "team-42", id: teamCounters.id, path: "/counters", since: teamRev }, "team-42 resumed from its own");
    const probe = again.findIndex((message) => message.type === "get" && message.store === "team-42");
    const resume = again.findIndex((message) => message.type === "subscribe" && message.store === "team-42");
    assert.ok(probe >= 0 && probe < resume, "team-42's epoch was asked (a get) before resuming with since");

    // Live again in both stores.
    await within(client.dispatch({ type: "increment", counter: "hits" }), "main's ack");
    assert.deepEqual(mainCounters.value, { hits: 11 });
  } finally {
    client.close();
    await server.stop();
    rmSync(data, { recursive: true, force: true });
  }
});

test("a new epoch of one store starts only that store's mirrors over", { timeout: 2 * TIMEOUT_MS }, async () => {
  const port = await freePort();
  const data = mkdtempSync(join(tmpdir(), "statesync-stores-"));
  const args = ["--data", data, "--port", String(port)];
  let server = await startServer(args);
  const sent = [];
  const client = new StateSyncClient(server.url, { backoff, WebSocket: recordingWebSocket(sent) });
  try {
    await within(client.ready(), "the welcome");
    const team = client.store("team-42");
    const mainCounters = client.subscribe("/counters");
    const teamCounters = team.subscribe("/counters");
    for (let i = 0; i < 6; i++) await within(team.dispatch({ type: "increment", counter: "hits" }), "team-42's ack");
    await within(client.dispatch({ type: "increment", counter: "hits", by: 10 }), "main's ack");
    const mainRev = mainCounters.rev;
    const mainEpoch = client.welcome.epoch;
    const teamEpoch = team.epoch;

    await server.stop();
    // team-42's history starts anew (the file of every store but main is gone); main's stays.
    for (const file of ["stores.sqlite", "stores.sqlite-wal", "stores.sqlite-shm", "stores.durable"]) {
      rmSync(join(data, file), { force: true });
    }
    const before = sent.length;
    server = await startServer(args);
    await until(() => team.epoch !== teamEpoch && teamCounters.rev !== null, "team-42's fresh snapshot in its new epoch");
    assert.equal(client.welcome.epoch, mainEpoch, "main's history is the same");
    assert.deepEqual(teamCounters.value, {}, "team-42's mirror started over");
    assert.deepEqual(mainCounters.value, { hits: 10 }, "main's mirror is kept");
    const again = sent.slice(before).filter((message) => message.type === "subscribe");
    assert.deepEqual(again.find((message) => message.store === undefined),
      { type: "subscribe", id: mainCounters.id, path: "/counters", since: mainRev });
    assert.deepEqual(again.filter((message) => message.store === "team-42"),
      [{ type: "subscribe", store: "team-42", id: teamCounters.id, path: "/counters" }], "team-42: no since from the old epoch");
    await within(team.dispatch({ type: "increment", counter: "hits" }), "team-42's ack in the new epoch");
    assert.deepEqual(teamCounters.value, { hits: 1 });
  } finally {
    client.close();
    await server.stop();
    rmSync(data, { recursive: true, force: true });
  }
});

// The server names the store in its errors about other stores (forbidden,
// too_many_subscriptions, invalid_path, bad_request): when main and another
// store both await the same id, the other store's refusal ends only its own
// subscription.
test("a refusal in team-42 with an id main awaits too ends only team-42's subscription", {
  timeout: 2 * TIMEOUT_MS,
}, async () => {
  const server = await startServer(["--memory", "--port", "0", "--restrict-read", "/presence=admin"]);
  const client = new StateSyncClient(server.url, { backoff });
  try {
    await within(client.ready(), "the welcome");
    const refusals = [];
    // team-42's subscribe goes out first: its error comes before main's
    // snapshot, while both await an answer to s1.
    const teamPresence = client.store("team-42").subscribe("/presence", undefined, (error) => refusals.push(`team-42 ${error.code}`));
    const mainTodos = client.subscribe("/todos", undefined, (error) => refusals.push(`main ${error.code}`));
    assert.equal(mainTodos.id, teamPresence.id);
    await until(() => refusals.length > 0, "a refusal");
    await within(client.dispatch({ type: "addTodo", title: "Milk" }), "main's ack");
    assert.deepEqual(refusals, ["team-42 forbidden"]);
    assert.equal(mainTodos.value?.length, 1, "main's subscription lives on");
  } finally {
    client.close();
    await server.stop();
  }
});
