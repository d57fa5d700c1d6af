// usage.ts: the client's API and the protocol's messages used the way an app
// would, checked by `tsc -p clients/js/types-test` (never run). Each line
// after `// @ts-expect-error` is a mistake the declarations must refuse: were
// it accepted, tsc would fail with "Unused '@ts-expect-error' directive".
import {
  StateSyncClient, StateSyncError, StateSyncStore, OptimisticMirror, applyPatch, parsePointer, formatPointer,
} from "statesync-client";
import type {
  ClientMessage, ConnectionState, JSONValue, PatchOperation, Reducer, Role, ServerMessage, StoreName, Subscription,
  WebSocketLike,
} from "statesync-client";

// MARK: The board app (docs/PROTOCOL.md), typed by the app

interface Todo { id: string; title: string; done: boolean; priority: "low" | "normal" | "high" }
interface Board {
  todos: Todo[];
  counters: Record<string, number>;
  chat: { from: string; text: string; at: string }[];
  presence: Record<string, { name: string; since: string }>;
}
type BoardAction =
  | { type: "addTodo"; title: string }
  | { type: "toggleTodo"; id: string }
  | { type: "renameTodo"; id: string; title: string }
  | { type: "removeTodo"; id: string }
  | { type: "clearCompleted" }
  | { type: "increment"; counter: string; by?: number }
  | { type: "resetCounter"; counter: string }
  | { type: "setPriority"; id: string; priority: Todo["priority"] }
  | { type: "postMessage"; text: string };

const boardReducer: Reducer<Board, BoardAction> = (state, action, meta) => {
  switch (action.type) {
    case "addTodo":
      state.todos.push({ id: `t${meta.revision}`, title: action.title, done: false, priority: "normal" });
      return state;
    case "increment":
      state.counters[action.counter] = (state.counters[action.counter] ?? 0) + (action.by ?? 1);
      return state;
    default:
      return state;
  }
};

// MARK: The client

async function board(): Promise<void> {
  const client = new StateSyncClient<BoardAction>("ws://127.0.0.1:8080/sync", {
    name: "alice", token: "secret", backoff: { maxMs: 5000 }, autoConnect: true,
  });
  const welcome = await client.ready();
  const role: Role | undefined = welcome.role; // absent: the token grants nothing in main
  await client.refreshToken("eyJhbGciOiJIUzI1NiJ9.e30.sig");
  const roleNow: Role | null = client.role;
  const epoch: string = welcome.epoch;
  const stop = client.onConnection((state: ConnectionState) => console.log(state, client.url, client.rev));

  const todos: Subscription<Todo[]> = client.subscribe<Todo[]>("/todos", (value, rev) => {
    console.log(rev, value?.length ?? 0);
  }, (error) => console.log(error.code, error.detail));
  const mirrored: Todo[] | null | undefined = todos.value;
  const stopTitle = client.observe<string>("/todos/0/title", (title) => console.log(title?.toUpperCase()));
  const peeked = client.peek<Todo[]>("/todos");
  const { rev: readAt, value: counters } = await client.get<Record<string, number>>("/counters");
  console.log(readAt, counters?.hits, peeked, mirrored, role, roleNow, epoch);

  try {
    const { rev } = await client.dispatch({ type: "addTodo", title: "Milk" });
    console.log(rev + 1);
  } catch (error) {
    if (error instanceof StateSyncError && error.code === "not_found") console.log(error.detail);
  }

  const optimistic = client.optimistic(boardReducer, (state, { confirmed, pending }) => {
    console.log(state.todos.length, confirmed.todos.length, pending);
  });
  const predicted: Board | undefined = optimistic.state;
  await optimistic.dispatch({ type: "toggleTodo", id: "t1" });
  for (const entry of optimistic.pending) console.log(entry.id, entry.action.type, entry.inDoubt);
  const same: OptimisticMirror<Board, BoardAction> = new OptimisticMirror(client, boardReducer);
  console.log(predicted, same.rev);

  // @ts-expect-error an addTodo needs its title
  client.dispatch({ type: "addTodo" });
  // @ts-expect-error not an action of the board
  client.dispatch({ type: "fly", to: "moon" });
  // @ts-expect-error a subscription's callback must take null (nothing at the path)
  client.subscribe<Todo[]>("/todos", (value: Todo[]) => console.log(value.length));
  // @ts-expect-error the connection state is the client's to change
  client.connection = "open";
  // @ts-expect-error a subscription's mirror is read-only
  todos.rev = 3;
  // @ts-expect-error the reducer returns the new state
  client.optimistic((state: Board) => state.todos.length);
  // @ts-expect-error no internals in the public surface
  client._socket.close();
  // @ts-expect-error nor in the mirror's
  optimistic._rebase();

  // Another store over the same connection: the same API, its own ids and revisions.
  const team: StateSyncStore<BoardAction> = client.store("team-42");
  const storeName: StoreName = team.name;
  const teamEpoch: string | null = team.epoch;
  const teamTodos: Subscription<Todo[]> = team.subscribe<Todo[]>("/todos", (value, rev) => console.log(rev, value?.length));
  const inStore: StoreName = teamTodos.store;
  const stopTeamHits = team.observe<number>("/counters/hits", (hits) => console.log((hits ?? 0) + 1));
  const { rev: teamRev } = await team.dispatch({ type: "increment", counter: "hits" });
  const { value: teamCounters } = await team.get<Record<string, number>>("/counters");
  const teamPeek: Todo[] | null | undefined = team.peek<Todo[]>("/todos");
  const teamMirror: OptimisticMirror<Board, BoardAction> = team.optimistic(boardReducer);
  const alsoTeam = new OptimisticMirror(team, boardReducer);
  const mirroredStore: StoreName = alsoTeam.store;
  const sameClient: StateSyncClient<BoardAction> = team.client;
  console.log(storeName, teamEpoch, inStore, teamRev, team.rev, teamCounters?.hits, teamPeek, mirroredStore, sameClient);
  // @ts-expect-error a store's actions are the client's
  team.dispatch({ type: "fly", to: "moon" });
  // @ts-expect-error a store is named by a string
  client.store(42);
  // @ts-expect-error stores are made by client.store(name)
  new StateSyncStore();
  // @ts-expect-error a store's revision is the client's to change
  team.rev = 3;
  // @ts-expect-error no stores inside a store
  team.store("other");
  // @ts-expect-error the connection is the client's: a store does not close it
  team.close();

  stopTeamHits();
  teamTodos.close();
  teamMirror.close();
  alsoTeam.close();
  stopTitle();
  stop();
  todos.close();
  optimistic.close();
  client.close();
}

// Untyped actions: any object with a string type.
const loose = new StateSyncClient(["ws://a:8080/sync", "ws://b:8080/sync"], { WebSocket: globalThis.WebSocket });
loose.dispatch({ type: "postMessage", text: "hi" });
// @ts-expect-error an action has a string type
loose.dispatch({ title: "Milk" });
// @ts-expect-error options are typed
new StateSyncClient("ws://127.0.0.1:8080/sync", { token: 42 });

// A WebSocket of one's own (tests, older Node).
class ScriptedSocket implements WebSocketLike {
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  constructor(readonly url: string, readonly protocols: string[]) {}
  send(data: string): void { console.log(data); }
  close(): void {}
}
new StateSyncClient("ws://test/sync", { WebSocket: ScriptedSocket, autoConnect: false });

// MARK: JSON Pointer and Patch

const ops: PatchOperation[] = [
  { op: "add", path: "/0", value: { id: "t5", title: "Milk", done: false } },
  { op: "move", from: "/0", path: "/1" },
  { op: "test", path: "/1/done", value: false },
];
const patched: JSONValue = applyPatch([], ops);
const tokens: string[] = parsePointer("/todos/0");
console.log(patched, formatPointer([...tokens, 1]));
// @ts-expect-error a move needs its from
const broken: PatchOperation = { op: "move", path: "/1" };

// MARK: Protocol messages, discriminated on type

function handle(message: ServerMessage): string {
  switch (message.type) {
    case "welcome": return `${message.session} ${message.epoch} ${message.role ?? "none"} ${message.server}`;
    case "authorized": return `${message.id} ${message.role ?? "none"} ${message.expires ?? "never"}`;
    case "snapshot": return `${message.store ?? "main"} ${message.epoch ?? "-"} ${message.id} ${message.rev} ${JSON.stringify(message.value)}`;
    case "patch": return `${message.id} ${message.base}→${message.rev} ${message.ops.map((op) => op.op)}`;
    case "unsubscribed": return message.id;
    case "value": return `${message.store ?? "main"} ${message.epoch ?? "-"} ${message.id} ${message.rev}`;
    case "ack": return `${message.id} ${message.rev}`;
    case "reject": return `${message.id} ${message.code} ${message.message}`;
    case "error": return `${message.store ?? "main"} ${message.id ?? "-"} ${message.code === "invalid_store" ? "bad name" : message.code} ${message.message}`;
    default: {
      const unhandled: never = message; // every server message is handled above
      return unhandled;
    }
  }
}

const sent: ClientMessage<BoardAction>[] = [
  { type: "hello", clientId: "c-5f2a", token: "secret", name: "alice-laptop" },
  { type: "subscribe", id: "s1", path: "/todos", since: 1045 },
  { type: "subscribe", store: "team-42", id: "s1", path: "/todos", since: 12 },
  { type: "dispatch", store: "team-42", id: "a1", action: { type: "addTodo", title: "Milk" } },
  { type: "get", store: "team-42", id: "g1", path: "" },
  { type: "unsubscribe", store: "team-42", id: "s1" },
  { type: "unsubscribe", id: "s1" },
  { type: "get", id: "g1", path: "/counters" },
  { type: "dispatch", id: "a17", action: { type: "toggleTodo", id: "t7" } },
  { type: "auth", id: "t1", token: "eyJhbGciOiJIUzI1NiJ9.e30.sig" },
];
console.log(handle({ type: "ack", id: "a17", rev: 1045 }), sent, broken, board, loose);

// @ts-expect-error a patch names its base
const gapless: ServerMessage = { type: "patch", id: "s1", rev: 2, ops: [] };
// @ts-expect-error welcome is the server's, not the client's
const wrongWay: ClientMessage = { type: "welcome", session: "s-1", epoch: "e-1", rev: 0, role: "writer", server: "x" };
// @ts-expect-error a patch carries no epoch (snapshot and value do)
const epochPatch: ServerMessage = { type: "patch", store: "team-42", id: "s1", base: 1, rev: 2, ops: [], epoch: "e-1" };
// @ts-expect-error a store is named by a string
const numbered: ClientMessage = { type: "get", store: 7, id: "g1", path: "" };
// @ts-expect-error an auth carries its token
const tokenless: ClientMessage = { type: "auth", id: "t1" };
// @ts-expect-error roles are reader, writer and admin
const owner: Role = "owner";
function ackValue(message: ServerMessage): unknown {
  // @ts-expect-error an ack carries no value
  if (message.type === "ack") return message.value;
  return undefined;
}
console.log(gapless, wrongWay, owner, ackValue, epochPatch, numbered, tokenless);
