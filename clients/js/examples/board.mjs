// A short tour of the JavaScript client against `statesync serve` (the board app):
//
//   swift run statesync serve --memory &
//   node clients/js/examples/board.mjs ws://127.0.0.1:8080/sync
//
// Node 22 or later (Node 20 and 21: node --experimental-websocket …). It
// imports the package by its name, as an app that ran `npm install ./clients/js`
// does (here, inside the package, Node resolves the name to ../statesync.js).
import { StateSyncClient, StateSyncError } from "statesync-client";

const url = process.argv[2] ?? "ws://127.0.0.1:8080/sync";
const client = new StateSyncClient(url, { name: "js-example" });
const welcome = await client.ready();
console.log(`welcome: session ${welcome.session}, role ${welcome.role}, rev ${welcome.rev}`);

// A mirror of /todos, and an observer of one counter (its own subscription).
const todos = client.subscribe("/todos", (value, rev) => console.log(`rev ${rev}: ${value?.length ?? 0} todos`));
const stop = client.observe("/counters/hits", (hits, rev) => console.log(`rev ${rev}: hits = ${hits}`));

const { rev } = await client.dispatch({ type: "addTodo", title: "Try the JavaScript client" });
console.log(`added at rev ${rev}: ${JSON.stringify(todos.value.at(-1))}`); // its patch came before the ack
await client.dispatch({ type: "increment", counter: "hits", by: 3 });
try {
  await client.dispatch({ type: "toggleTodo", id: "nope" });
} catch (error) {
  if (!(error instanceof StateSyncError)) throw error;
  console.log(`rejected: ${error.code} ${error.detail}`);
}
const { value: counters } = await client.get("/counters");
console.log(`counters: ${JSON.stringify(counters)}`);

stop();
client.close();
