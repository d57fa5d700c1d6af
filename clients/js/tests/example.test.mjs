// examples/board.mjs, the README's example, run as a user would against a
// real `statesync serve` (see server.mjs): it must finish and print what it
// promises.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { StateSyncClient } from "../statesync.js";
import { TIMEOUT_MS, withServer, within } from "./server.mjs";

const EXAMPLE = fileURLToPath(new URL("../examples/board.mjs", import.meta.url));
const README = fileURLToPath(new URL("../README.md", import.meta.url));

test("the README's example is examples/board.mjs from its imports on", () => {
  const readme = readFileSync(README, "utf8");
  const block = readme.match(/^## Example\n[\s\S]*?^```js\n([\s\S]*?)^```$/m);
  assert.ok(block, "README.md has a js block under ## Example");
  const example = readFileSync(EXAMPLE, "utf8");
  assert.equal(example.slice(example.indexOf("import ")), block[1]);
});

/** Runs the example with node (and this process's WebSocket flag); resolves with its stdout. */
function runExample(url) {
  const flags = process.execArgv.filter((flag) => flag === "--experimental-websocket");
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [...flags, EXAMPLE, url], { timeout: TIMEOUT_MS }, (error, stdout, stderr) => {
      if (error) reject(new Error(`examples/board.mjs failed (${error.code ?? error.signal}): ${stderr}`));
      else resolve(stdout);
    });
  });
}

test("examples/board.mjs adds a todo, counts, is refused with a code, and exits", { timeout: 2 * TIMEOUT_MS }, async () => {
  await withServer(async (server) => {
    const output = await runExample(server.url);
    assert.match(output, /^welcome: session \S+, role writer, rev \d+$/m);
    assert.match(output, /^added at rev \d+: \{"done":false,"id":"t\d+","priority":"normal","title":"Try the JavaScript client"\}$/m);
    assert.match(output, /^rev \d+: hits = 3$/m);
    assert.match(output, /^rejected: not_found no todo with id nope$/m);
    assert.match(output, /^counters: \{"hits":3\}$/m);
    const client = new StateSyncClient(server.url);
    try {
      await within(client.ready(), "the welcome");
      const { value } = await within(client.get("/todos"), "the todos");
      assert.deepEqual(value.map((todo) => todo.title), ["Try the JavaScript client"], "the server has the todo");
    } finally {
      client.close();
    }
  });
});
