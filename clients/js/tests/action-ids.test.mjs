// Action ids against a real `statesync serve` (the JavaScript twin of
// clients/python/tests/test_action_ids.py): unique across instances that
// share a clientId, and exactly-once when an in-flight dispatch is re-sent
// after its connection dropped.
//
// The server: see server.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { StateSyncClient } from "../statesync.js";
import { TIMEOUT_MS, until, withServer, within } from "./server.mjs";

/**
 * A TCP proxy on loopback between a client and the server. While `holding`
 * is set, it swallows everything the server sends (so an `ack` is lost on
 * the way); `drop()` then cuts every proxied connection, as a network
 * failure would. New connections are proxied normally.
 */
class HoldingProxy {
  constructor(upstreamPort) {
    this.upstreamPort = upstreamPort;
    this.holding = false;
    this.connections = 0;
    this.port = 0;
    this._sockets = new Set();
    this._server = net.createServer((client) => this._accept(client));
  }

  start() {
    return new Promise((resolve, reject) => {
      this._server.once("error", reject);
      this._server.listen(0, "127.0.0.1", () => {
        this.port = this._server.address().port;
        resolve();
      });
    });
  }

  _accept(client) {
    this.connections += 1;
    const upstream = net.connect(this.upstreamPort, "127.0.0.1");
    for (const socket of [client, upstream]) {
      this._sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => {
        this._sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on("data", (data) => upstream.write(data));
    upstream.on("data", (data) => { if (!this.holding) client.write(data); });
  }

  /** Cuts every proxied connection (both sides, with a reset), and stops holding. */
  drop() {
    for (const socket of this._sockets) socket.resetAndDestroy();
    this._sockets.clear();
    this.holding = false;
  }

  close() {
    this.drop();
    return new Promise((resolve) => this._server.close(() => resolve()));
  }
}

const backoff = { initialMs: 50, maxMs: 300 };

test("two instances with the same clientId both get their actions applied", { timeout: 2 * TIMEOUT_MS }, async () => {
  await withServer(async (server) => {
    const first = new StateSyncClient(server.url, { clientId: "c-saved", backoff });
    await within(first.ready(), "the first instance's welcome");
    const { rev: firstRev } = await within(first.dispatch({ type: "increment", counter: "hits" }), "the first ack");
    first.close();
    // A new instance given the saved clientId, as after a page reload.
    const second = new StateSyncClient(server.url, { clientId: "c-saved", backoff });
    try {
      await within(second.ready(), "the second instance's welcome");
      const { rev: secondRev } = await within(second.dispatch({ type: "increment", counter: "hits" }), "the second ack");
      assert.ok(secondRev > firstRev, `a new revision (${secondRev}), not the first instance's remembered ack (${firstRev})`);
      const { value } = await within(second.get("/counters"), "the counters");
      assert.deepEqual(value, { hits: 2 }, "both increments applied");
    } finally {
      second.close();
    }
  });
});

test("an in-flight dispatch re-sent after the connection drops is applied once", { timeout: 2 * TIMEOUT_MS }, async () => {
  await withServer(async (server) => {
    const proxy = new HoldingProxy(server.port);
    await proxy.start();
    const observer = new StateSyncClient(server.url, { backoff });
    const client = new StateSyncClient(`ws://127.0.0.1:${proxy.port}/sync`, { backoff });
    try {
      await within(observer.ready(), "the observer's welcome");
      const counters = observer.subscribe("/counters");
      await until(() => counters.rev !== null, "the counters' snapshot");
      await within(client.ready(), "the client's welcome through the proxy");

      proxy.holding = true; // the server's ack will not reach the client
      let settled = false;
      const pending = client.dispatch({ type: "increment", counter: "hits", by: 5 });
      pending.then(() => { settled = true; }, () => { settled = true; });
      await until(() => counters.value?.hits === 5, "the server applying the action");
      const appliedRev = counters.rev;
      assert.equal(settled, false, "the ack was held back");

      proxy.drop();
      // The client reconnects and re-sends the dispatch with its id; the
      // server answers with the remembered outcome instead of applying it again.
      const { rev } = await within(pending, "the re-sent dispatch's ack");
      assert.equal(rev, appliedRev, "resolved with the revision the action was applied at");
      assert.ok(proxy.connections >= 2, "the dispatch went out again on a new connection");
      const { value } = await within(observer.get("/counters"), "the counters");
      assert.deepEqual(value, { hits: 5 }, "applied exactly once");
      // Presence changes (sessions joining and leaving) take revisions too,
      // so the counters' own subscription says that they did not change again.
      assert.deepEqual(counters.value, { hits: 5 });
      assert.equal(counters.rev, appliedRev, "no second change of /counters");
    } finally {
      client.close();
      observer.close();
      await proxy.close();
    }
  });
});
