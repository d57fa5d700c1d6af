// Helpers of the tests that run a real `statesync serve`: the server is
// `.build/debug/statesync` of the repository (`swift build`), or the path in
// STATESYNC_BIN. Node 20 and 21 need --experimental-websocket for the global
// WebSocket (scripts/test passes it).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
export const TIMEOUT_MS = 30_000;
const LISTENING = /statesync listening on (ws:\/\/\S+:(\d+)\/sync)/;

function binary() {
  const path = process.env.STATESYNC_BIN || `${REPO}.build/debug/statesync`;
  try {
    accessSync(path, constants.X_OK);
  } catch {
    assert.fail(`no statesync binary at ${path}: run \`swift build\` first (or set STATESYNC_BIN)`);
  }
  return path;
}

function requireWebSocket() {
  if (typeof globalThis.WebSocket !== "function") {
    assert.fail("no global WebSocket: use Node 22+, or Node 20/21 with --experimental-websocket");
  }
}

/**
 * Starts `statesync serve` (default `--memory --port 0`, else with `args`);
 * resolves with { url, port, stop() } once it listens.
 */
export function startServer(args = ["--memory", "--port", "0"]) {
  const child = spawn(binary(), ["serve", "--host", "127.0.0.1", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => { stderr += chunk; });
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return new Promise((resolve, reject) => {
    const fail = (message) => {
      clearTimeout(timer);
      stop().then(() => reject(new Error(`${message}\n${stderr}`)));
    };
    const timer = setTimeout(() => fail("statesync serve did not print its address within 30 s"), TIMEOUT_MS);
    const lines = createInterface({ input: child.stdout });
    lines.on("line", (line) => {
      const match = LISTENING.exec(line);
      if (!match) return;
      clearTimeout(timer);
      resolve({ url: match[1], port: Number(match[2]), stop });
    });
    child.once("error", (error) => fail(`statesync serve did not start: ${error.message}`));
    exited.then(({ code, signal }) => fail(`statesync serve exited before listening (${signal ?? code})`));
  });
}

/** Runs `body(server)` against a fresh server, then stops it (SIGTERM, as a user would). */
export async function withServer(body) {
  requireWebSocket();
  const server = await startServer();
  try {
    return await body(server);
  } finally {
    await server.stop();
  }
}

/** The HS256 secret of the servers withJWTServer starts (the server wants at least 32 bytes). */
export const JWT_SECRET = "statesync-js-test-secret-0123456789abcdef";

/**
 * A JWT of `claims` signed with HS256 and `secret`; `exp` defaults to in 10 minutes.
 * @param {object} claims e.g. { role: "writer" } or { stores: { "team-*": "writer" } }
 */
export function mintJWT(claims, secret = JWT_SECRET) {
  const encode = (value) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const body = `${encode({ alg: "HS256", typ: "JWT" })}.${encode({ exp: Math.floor(Date.now() / 1000) + 600, ...claims })}`;
  return `${body}.${createHmac("sha256", secret).update(body).digest("base64url")}`;
}

/**
 * Runs `body(server, start)` against a fresh `statesync serve --memory
 * --jwt-key-file` whose key is JWT_SECRET; `start(port)` starts another on
 * the same key (e.g. on the port of one stopped). All are stopped after.
 */
export async function withJWTServer(body) {
  requireWebSocket();
  const directory = mkdtempSync(join(tmpdir(), "statesync-jwt-"));
  const keyFile = join(directory, "secret");
  writeFileSync(keyFile, JWT_SECRET, { mode: 0o600 });
  const servers = [];
  const start = async (port = 0) => {
    const server = await startServer(["--memory", "--port", String(port), "--jwt-key-file", keyFile]);
    servers.push(server);
    return server;
  };
  try {
    return await body(await start(), start);
  } finally {
    for (const server of servers) await server.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}

/** Resolves once `predicate()` holds; fails naming `what` after the timeout. */
/** A WebSocket constructor that records every message the client sends, decoded, in `sent`. */
export function recordingWebSocket(sent) {
  return class RecordingWebSocket extends globalThis.WebSocket {
    send(data) {
      sent.push(JSON.parse(data));
      super.send(data);
    }
  };
}

export async function until(predicate, what) {
  const deadline = Date.now() + TIMEOUT_MS;
  while (!predicate()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** `promise`, or a failure naming `what` after the timeout. */
export function within(promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A loopback port nobody listens on now (the OS's choice, released). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
