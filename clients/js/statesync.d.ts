// statesync.d.ts: the types of statesync.js, the StateSync client's public API.
// The wire protocol's messages are in protocol.d.ts, re-exported here.

import type { Action, JSONValue, PatchOperation, Revision, Role, StoreName, WelcomeMessage } from "./protocol.js";

export * from "./protocol.js";

// MARK: JSON Pointer (RFC 6901) and JSON Patch (RFC 6902)

/** The reference tokens of a JSON Pointer; throws StateSyncError `invalid_path` on a malformed one. */
export function parsePointer(pointer: string): string[];

/** A JSON Pointer from reference tokens. */
export function formatPointer(tokens: ReadonlyArray<string | number>): string;

/** The tokens of `pointer` below `prefix`, or null when `prefix` does not contain it. */
export function relativeTokens(prefix: string, pointer: string): string[] | null;

/** The value at `tokens` in `doc`, or undefined when nothing is there. */
export function valueAt(doc: unknown, tokens: readonly string[]): JSONValue | undefined;

/** Deep equality of JSON values (object key order does not matter). */
export function jsonEqual(a: unknown, b: unknown): boolean;

/**
 * Applies RFC 6902 operations to `doc` and returns the new document; `doc` is
 * never changed. Throws StateSyncError `bad_patch` naming the failing operation.
 */
export function applyPatch(doc: unknown, ops: readonly PatchOperation[]): JSONValue;

// MARK: Errors

/** Codes the client itself gives a StateSyncError. */
export type ClientErrorCode = "closed" | "bad_patch" | "invalid_path" | "invalid_action" | "invalid_store";

/** An error from the server (`reject`, `error`) or the client, with its protocol `code`. */
export class StateSyncError extends Error {
  constructor(code: string, message: string);
  readonly name: "StateSyncError";
  /** The protocol's code (`not_found`, `unauthorized`, …, see ErrorCode and RejectCode) or a ClientErrorCode. */
  readonly code: string;
  /** The message without the code (`message` is "code: detail"). */
  readonly detail: string;
}

// MARK: Client

/** The state of a client's connection. */
export type ConnectionState = "connecting" | "open" | "reconnecting" | "closed";

/**
 * What the client uses of a socket: it sends text, closes, and sets these
 * handlers (it reads only `event.data` of a message; events are `any` so that
 * the DOM's WebSocket and others fit).
 */
export interface WebSocketLike {
  send(data: string): void;
  close(code?: number): void;
  onopen: ((event: any) => void) | null;
  onmessage: ((event: any) => void) | null;
  onclose: ((event: any) => void) | null;
  onerror: ((event: any) => void) | null;
}

/** A WebSocket constructor: the global WebSocket, or one like it (`ws` in older Node). */
export type WebSocketConstructor = new (url: string, protocols: string[]) => WebSocketLike;

/** Reconnect delays: doubled per round of failures up to maxMs, then a random 50–100% of it. */
export interface Backoff {
  /** Default 250. */
  initialMs: number;
  /** Default 10000. */
  maxMs: number;
}

/** The options of `new StateSyncClient(url, options)`. */
export interface StateSyncClientOptions {
  /** Sent in `hello` when the server requires one. */
  token?: string;
  /** The session's name (presence, chat). */
  name?: string;
  /** Scopes action ids for exactly-once; default a random one, kept across reconnects. */
  clientId?: string;
  backoff?: Partial<Backoff>;
  /** The app schema version this build speaks, sent in `hello` (an integer from 1). */
  schemaVersion?: number;
  /** Default the global WebSocket (Node 22+, browsers). */
  WebSocket?: WebSocketConstructor;
  /** Connect at once (default true); otherwise call connect(). */
  autoConnect?: boolean;
}

/** Called with a subscription's or an observed path's value (null while nothing is there) and its revision. */
export type ValueCallback<T> = (value: T | null, rev: Revision) => void;

/** Called with the server's refusal of a subscription (`forbidden`, `invalid_path`, …). */
export type ErrorCallback = (error: StateSyncError) => void;

/** A live subscription, as `subscribe` returns it. */
export interface Subscription<T = JSONValue> {
  /** Its protocol id. */
  readonly id: string;
  readonly path: string;
  /** The store it is in ("main" for the client's own). */
  readonly store: StoreName;
  /** The mirror of the value at `path`: undefined until the snapshot, null while nothing is there. */
  readonly value: T | null | undefined;
  /** The revision of `value`, null until the snapshot. */
  readonly rev: Revision | null;
  /** Unsubscribes. */
  close(): void;
}

/** The answer to `client.get(path)`. */
export interface GetResult<T = JSONValue> {
  rev: Revision;
  value: T | null;
}

/** The answer to `client.dispatch(action)`: the revision it was applied at. */
export interface DispatchResult {
  rev: Revision;
}

/**
 * A connection to a StateSync server with mirrors of its subscriptions. It
 * reconnects by itself, resumes subscriptions with `since`, and re-sends
 * unanswered dispatches with their ids (exactly-once).
 *
 * `A` is the app's action type (a union of `{ type: "…", … }` objects).
 */
export class StateSyncClient<A extends { type: string } = Action> {
  /**
   * @param url ws://HOST:PORT/sync, or several (an array, or one string
   *   separated by commas), tried in turn. Throws a TypeError for no URL, one
   *   that is not ws:// or wss://, no WebSocket, or a mistyped option.
   */
  constructor(url: string | readonly string[], options?: StateSyncClientOptions);

  /** Every URL given, in the order they are tried. */
  readonly urls: readonly string[];
  /** The URL of the node in use, or being tried. */
  readonly url: string;
  /** The token `hello` sends: options.token until refreshToken replaces it. */
  readonly token: string | undefined;
  readonly name: string | undefined;
  readonly clientId: string;
  /** The app schema version `hello` declares, when given. */
  readonly schemaVersion?: number;
  readonly backoff: Readonly<Backoff>;
  /** The prefix of this instance's action ids ("<prefix>-a<n>"). */
  readonly actionIdPrefix: string;
  readonly connection: ConnectionState;
  /** The last `welcome`, null before the first. */
  readonly welcome: WelcomeMessage | null;
  /** The newest revision of "main" seen (of its current epoch). */
  readonly rev: Revision | null;
  /**
   * The session's role in "main": the welcome's, then each refreshed token's;
   * null before the first welcome and when the token grants none there.
   */
  readonly role: Role | null;
  /** The last error the server sent without an id (e.g. `unauthorized`). */
  readonly lastError: StateSyncError | null;

  /** Connects (again, after close()) and resolves with the next session's welcome. */
  connect(): Promise<WelcomeMessage>;
  /** Resolves with the current or next welcome; rejects when closed or refused. */
  ready(): Promise<WelcomeMessage>;
  /**
   * Replaces the session's token in place (`auth`): subscriptions and pending
   * requests stay, `role` becomes the new token's, later reconnects send it in
   * `hello`. Offline, it is kept for the next hello and resolves once welcomed.
   * Rejects with a StateSyncError `unauthorized` when the server refuses it
   * (the connection goes on under the token in force), or `closed`. Throws a
   * TypeError for a token that is not a non-empty string.
   *
   *     await client.refreshToken(newJWT);
   */
  refreshToken(token: string): Promise<void>;
  /** Closes for good: no reconnect; pending requests fail with code "closed". */
  close(): void;
  /** Calls `callback` now and on every connection-state change; returns a function that stops it. */
  onConnection(callback: (state: ConnectionState) => void): () => void;

  /** Opens a subscription at `path` ("" = whole state); `callback` gets its snapshot and each change. */
  subscribe<T = JSONValue>(path: string, callback?: ValueCallback<T>, onError?: ErrorCallback): Subscription<T>;
  /**
   * Observes the value at `path`: `callback` now (once known) and on each change.
   * Rides on an open subscription containing `path`, or opens one. Returns a
   * function that stops observing.
   */
  observe<T = JSONValue>(path: string, callback: ValueCallback<T>, onError?: ErrorCallback): () => void;
  /** The value at `path` in a subscription's mirror (null when nothing is there), or undefined when none holds it. */
  peek<T = JSONValue>(path: string): T | null | undefined;
  /** One-shot read. */
  get<T = JSONValue>(path: string): Promise<GetResult<T>>;
  /** Sends an action; resolves once durable, rejects with a StateSyncError (the server's `code`; `unavailable` only for a first send: one re-sent after a drop is sent again until decided). */
  dispatch(action: A): Promise<DispatchResult>;
  /** An optimistic mirror of the whole state (see OptimisticMirror). */
  optimistic<S = JSONValue>(reducer: Reducer<S, A>, onChange?: OptimisticChange<S>): OptimisticMirror<S, A>;
  /**
   * The store `name` over this connection, with the same API as the client's
   * own methods (which are the store "main"'s); the same name gives the same
   * object. Throws StateSyncError `invalid_store` for a name that is not 1
   * to 64 of a–z 0–9 . _ -, starting with a letter or a digit.
   */
  store(name: StoreName): StateSyncStore<A>;
}

/**
 * One store of the server over its client's connection (`client.store(name)`):
 * subscriptions, requests and ids of its own; it resumes on its own after a
 * reconnect (`since` within its epoch; a new epoch starts only its mirrors over).
 */
export class StateSyncStore<A extends { type: string } = Action> {
  /** Made by client.store(name). */
  private constructor();
  readonly name: StoreName;
  /** The client whose connection it works over. */
  readonly client: StateSyncClient<A>;
  /** The store's epoch once a snapshot or value of it told it ("main": the welcome's), else null. */
  readonly epoch: string | null;
  /** The newest revision of this store seen (of its current epoch). */
  readonly rev: Revision | null;

  /** As client.subscribe, in this store. */
  subscribe<T = JSONValue>(path: string, callback?: ValueCallback<T>, onError?: ErrorCallback): Subscription<T>;
  /** As client.observe, in this store. */
  observe<T = JSONValue>(path: string, callback: ValueCallback<T>, onError?: ErrorCallback): () => void;
  /** As client.peek, in this store's mirrors. */
  peek<T = JSONValue>(path: string): T | null | undefined;
  /** As client.get, in this store. */
  get<T = JSONValue>(path: string): Promise<GetResult<T>>;
  /** As client.dispatch, to this store. */
  dispatch(action: A): Promise<DispatchResult>;
  /** An optimistic mirror of this store's whole state. */
  optimistic<S = JSONValue>(reducer: Reducer<S, A>, onChange?: OptimisticChange<S>): OptimisticMirror<S, A>;
}

// MARK: Optimistic updates

/** What a reducer is told besides the action; predicted on the client. */
export interface ReducerMeta {
  /** The confirmed revision plus the action's place in the queue. */
  revision: Revision;
  clientId: string;
  /** When it was dispatched here, ISO 8601. */
  time: string;
  session: { id: string; name: string };
}

/** The app's reducer ported to JS: gets a copy of the state, returns the new one, throws to predict a reject. */
export type Reducer<S, A> = (state: S, action: A, meta: ReducerMeta) => S;

/** Gets each new predicted state, the confirmed one, and how many actions are pending. */
export type OptimisticChange<S> = (state: S, view: { confirmed: S; pending: number }) => void;

/** An action sent and not answered yet. */
export interface PendingAction<A> {
  readonly id: string;
  readonly action: A;
  /** When it was dispatched, ISO 8601. */
  readonly time: string;
  /** Re-sent after a dropped connection (maybe applied): left out of the prediction until answered. */
  readonly inDoubt: boolean;
}

/**
 * A mirror of the whole state that shows the client's own actions at once,
 * predicted with the app's reducer, rebased on every patch, removed on their
 * ack and rolled back on a reject.
 */
export class OptimisticMirror<S = JSONValue, A extends { type: string } = Action> {
  /** Mirrors the client's store "main", or the store given. */
  constructor(client: StateSyncClient<A> | StateSyncStore<A>, reducer: Reducer<S, A>, onChange?: OptimisticChange<S>);
  readonly client: StateSyncClient<A>;
  /** The store it mirrors. */
  readonly store: StoreName;
  /** The prediction: confirmed plus pending actions (undefined until the snapshot). */
  readonly state: S | undefined;
  /** The server's state as last confirmed (undefined until the snapshot). */
  readonly confirmed: S | undefined;
  /** The revision of `confirmed`. */
  readonly rev: Revision | null;
  /** The actions not answered yet, in the order dispatched (a copy). */
  readonly pending: ReadonlyArray<PendingAction<A>>;
  /** Dispatches through the client: shown at once. */
  dispatch(action: A): Promise<DispatchResult>;
  /** Stops mirroring (the subscription is closed). */
  close(): void;
}
