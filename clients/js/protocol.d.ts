// protocol.d.ts: the messages of the StateSync wire protocol, statesync.v1
// (docs/PROTOCOL.md), as TypeScript types. Each WebSocket text message is one
// JSON object; `type` tells them apart, so both directions are discriminated
// unions on `type`. statesync.d.ts re-exports everything here.

/** A JSON value, as JSON.parse returns it. */
export type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue };

/**
 * A store's name (docs/PROTOCOL.md, "Stores"): 1 to 64 characters of a–z,
 * 0–9, ".", "_", "-", starting with a letter or a digit. A message without
 * `store` is about the store "main".
 */
export type StoreName = string;

/**
 * A revision: 0 for the initial state, +1 per accepted action. The protocol
 * allows up to 2^63−1; JSON.parse reads it exactly up to 2^53−1.
 */
export type Revision = number;

/** What a session may do: read; also dispatch; also use the admin/devtools features. */
export type Role = "reader" | "writer" | "admin";

/**
 * An action: a JSON object with a string `type` and its payload fields beside
 * it (Redux convention), e.g. `{ type: "addTodo", title: "Milk" }`.
 */
export interface Action {
  type: string;
  [field: string]: unknown;
}

// MARK: JSON Patch (RFC 6902), paths relative to the subscription's path

/** Adds `value` at `path` ("" replaces the whole focused value; "/-" appends to an array). */
export interface AddOperation { op: "add"; path: string; value: JSONValue }
/** Removes what is at `path`. */
export interface RemoveOperation { op: "remove"; path: string }
/** Replaces what is at `path` with `value`. */
export interface ReplaceOperation { op: "replace"; path: string; value: JSONValue }
/** Moves what is at `from` to `path`. */
export interface MoveOperation { op: "move"; from: string; path: string }
/** Copies what is at `from` to `path`. */
export interface CopyOperation { op: "copy"; from: string; path: string }
/** Fails the patch unless `value` is at `path`. */
export interface TestOperation { op: "test"; path: string; value: JSONValue }

/** One RFC 6902 operation; clients must apply all six. */
export type PatchOperation =
  | AddOperation | RemoveOperation | ReplaceOperation | MoveOperation | CopyOperation | TestOperation;

// MARK: Client → server

/** The first message of every session. */
export interface HelloMessage {
  type: "hello";
  /** A stable id kept across reconnects; scopes action ids for de-duplication. */
  clientId?: string;
  /** Required when the server runs with authentication. */
  token?: string;
  /** The session's name (presence, chat); default the session id. */
  name?: string;
  /** The app schema version the client speaks (an integer from 1): older than the server accepts is `upgrade_required`. */
  schemaVersion?: number;
}

/** Opens a subscription at a JSON Pointer ("" is the whole state). */
export interface SubscribeMessage {
  type: "subscribe";
  /** The store (default "main"). */
  store?: StoreName;
  /** Chosen by the client, unique among its open subscriptions. */
  id: string;
  path: string;
  /** Resume after a reconnect: a `patch` from this revision, or a fresh `snapshot`. */
  since?: Revision;
}

/** Closes a subscription; answered with `unsubscribed`. */
export interface UnsubscribeMessage { type: "unsubscribe"; store?: StoreName; id: string }

/** One-shot read; answered with `value`. */
export interface GetMessage { type: "get"; store?: StoreName; id: string; path: string }

/** Sends an action; answered with `ack` or `reject`. `(clientId, id)` is applied at most once. */
export interface DispatchMessage<A extends { type: string } = Action> {
  type: "dispatch";
  /** The store (default "main"); action ids are per store. */
  store?: StoreName;
  id: string;
  action: A;
  /** The app schema version the action was written for, when not the session's: the server upcasts an older one. */
  schemaVersion?: number;
}

/**
 * Replaces the session's token in place (a JWT refreshed before it expires);
 * answered with `authorized`, or `error` `unauthorized` (the token in force stays).
 */
export interface AuthMessage {
  type: "auth";
  id: string;
  token: string;
}

/** Every message a client sends. */
export type ClientMessage<A extends { type: string } = Action> =
  | HelloMessage | SubscribeMessage | UnsubscribeMessage | GetMessage | DispatchMessage<A> | AuthMessage;

// MARK: Server → client

/** The answer to `hello`. */
export interface WelcomeMessage {
  type: "welcome";
  session: string;
  /** Names the history of the store "main": revisions compare only within one epoch. */
  epoch: string;
  /** The latest durable revision of "main". */
  rev: Revision;
  /** The session's role in "main"; absent when its token grants none there (a JWT for other stores). */
  role?: Role;
  /** The server's name and version, e.g. "statesync/0.1.0". */
  server: string;
}

/** The answer to `auth`: the new token is in force. */
export interface AuthorizedMessage {
  type: "authorized";
  id: string;
  /** The session's role in "main" from now on; absent when the new token grants none there. */
  role?: Role;
  /** The new token's expiry (`exp`), in seconds since 1970; absent when it does not expire. */
  expires?: number;
}

/** A subscription's value at `rev` (null when nothing is at its path). */
export interface SnapshotMessage<T = JSONValue> {
  type: "snapshot";
  /** The store, when it is not "main". */
  store?: StoreName;
  id: string;
  /** The store's epoch (for a store other than "main"; main's is in `welcome`). */
  epoch?: string;
  rev: Revision;
  value: T | null;
}

/** A change of a subscription's value from `base` (its last rev) to `rev`; a gap must re-subscribe. */
export interface PatchMessage {
  type: "patch";
  store?: StoreName;
  id: string;
  base: Revision;
  rev: Revision;
  ops: PatchOperation[];
}

/** The answer to `unsubscribe`, or the end of a subscription a refreshed token no longer grants. */
export interface UnsubscribedMessage { type: "unsubscribed"; store?: StoreName; id: string }

/** The answer to `get` (null when nothing is at its path). */
export interface ValueMessage<T = JSONValue> {
  type: "value";
  /** The store, when it is not "main". */
  store?: StoreName;
  id: string;
  /** The store's epoch (for a store other than "main"). */
  epoch?: string;
  rev: Revision;
  value: T | null;
}

/** A dispatch applied at `rev` and durably stored (its patches came first). */
export interface AckMessage { type: "ack"; store?: StoreName; id: string; rev: Revision }

/** The codes of `reject` the server itself sends. */
export type ServerRejectCode =
  | "invalid_action" | "forbidden" | "rate_limited" | "too_many_clients" | "unavailable" | "state_too_large";

/**
 * A `reject` code: the server's, or one of the app's (the board app's
 * `not_found`, `limit_reached`, …), hence any string.
 */
export type RejectCode = ServerRejectCode | "not_found" | "limit_reached" | (string & {});

/** A dispatch that did not change the state. */
export interface RejectMessage { type: "reject"; store?: StoreName; id: string; code: RejectCode; message: string }

/** The codes of `error` (docs/PROTOCOL.md, "Errors"). */
export type ErrorCode =
  | "bad_json" | "unknown_type" | "bad_request" | "invalid_path" | "too_many_subscriptions"
  | "unsupported_binary" | "hello_required" | "unauthorized" | "rate_limited" | "forbidden"
  | "invalid_store" | "limit_reached" | "unavailable" | "behind" | "upgrade_required" | "schema_too_new";

/** A refused message; `id` is the related message's id, when it had one; `store` its store, when not "main". */
export interface ErrorMessage { type: "error"; store?: StoreName; id?: string; code: ErrorCode; message: string }

/** Every message the server sends. */
export type ServerMessage =
  | WelcomeMessage | AuthorizedMessage | SnapshotMessage | PatchMessage | UnsubscribedMessage
  | ValueMessage | AckMessage | RejectMessage | ErrorMessage;
