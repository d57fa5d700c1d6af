// statesync.js: the StateSync client for browsers and Node (docs/PROTOCOL.md,
// statesync.v1). One ES module, no build step, no dependencies. It mirrors
// subscribed slices of the server's state, lets components observe focused
// paths inside them, and dispatches actions. All logic stays on the server.
// Its types are in statesync.d.ts (the wire messages in protocol.d.ts); the
// server serves this file at /statesync.js, the package is clients/js.
//
//   import { StateSyncClient } from "/statesync.js";   // or "statesync-client"
//   const client = new StateSyncClient("ws://127.0.0.1:8080/sync", { name: "alice" });
//   client.observe("/todos", (todos) => render(todos));
//   client.observe("/todos/0/title", (title) => console.log(title)); // a slice below /todos
//   await client.dispatch({ type: "addTodo", title: "Milk" });       // { rev } or throws StateSyncError
//   const team = client.store("team-42");                            // another store, same connection
//   team.observe("/todos", (todos) => renderTeam(todos));
//   await client.refreshToken(newJWT);                               // a new token, same session

// MARK: JSON Pointer (RFC 6901)

/**
 * The reference tokens of a JSON Pointer (`""` is the whole document).
 * @param {string} pointer e.g. "/todos/0/title"
 * @returns {string[]} e.g. ["todos", "0", "title"], with ~1 and ~0 unescaped
 * @throws {StateSyncError} code `invalid_path` for a malformed pointer
 */
export function parsePointer(pointer) {
  if (pointer === "") return [];
  if (typeof pointer !== "string" || pointer[0] !== "/") {
    throw new StateSyncError("invalid_path", `a JSON Pointer is "" or starts with "/": ${JSON.stringify(pointer)}`);
  }
  return pointer.slice(1).split("/").map((token) => {
    if (/~[^01]|~$/.test(token)) throw new StateSyncError("invalid_path", `bad escape in ${JSON.stringify(pointer)}`);
    return token.replace(/~1/g, "/").replace(/~0/g, "~");
  });
}

/**
 * A JSON Pointer from reference tokens (the inverse of parsePointer).
 * @param {Array<string|number>} tokens e.g. ["a/b", 0]
 * @returns {string} e.g. "/a~1b/0"
 */
export function formatPointer(tokens) {
  return tokens.map((t) => "/" + String(t).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}

/**
 * The tokens of `pointer` below `prefix`, or null when `prefix` does not contain it.
 * @param {string} prefix e.g. "/todos"
 * @param {string} pointer e.g. "/todos/0/title"
 * @returns {string[]|null} e.g. ["0", "title"]
 * @throws {StateSyncError} `invalid_path` when either pointer is malformed
 */
export function relativeTokens(prefix, pointer) {
  const outer = parsePointer(prefix);
  const inner = parsePointer(pointer);
  if (outer.length > inner.length) return null;
  for (let i = 0; i < outer.length; i++) if (outer[i] !== inner[i]) return null;
  return inner.slice(outer.length);
}

function arrayIndex(token, length, allowEnd) {
  if (allowEnd && token === "-") return length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw patchError(`"${token}" is not an array index`);
  const index = Number(token);
  if (index > length || (!allowEnd && index === length)) throw patchError(`index ${index} is out of bounds (length ${length})`);
  return index;
}

/**
 * The value at `tokens` in `doc`, or undefined when nothing is there.
 * @param {unknown} doc a JSON value
 * @param {string[]} tokens reference tokens (see parsePointer)
 * @returns {unknown}
 */
export function valueAt(doc, tokens) {
  let node = doc;
  for (const token of tokens) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= node.length) return undefined;
      node = node[Number(token)];
    } else if (node !== null && typeof node === "object") {
      if (!Object.prototype.hasOwnProperty.call(node, token)) return undefined;
      node = node[token];
    } else {
      return undefined;
    }
  }
  return node;
}

// MARK: JSON Patch (RFC 6902)

function patchError(message) {
  return new StateSyncError("bad_patch", message);
}

/**
 * Deep equality of JSON values (object key order does not matter).
 * @param {unknown} a
 * @param {unknown} b
 * @returns {boolean}
 */
export function jsonEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length &&
    keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]));
}

// Returns a copy of `doc` where `edit(container, lastToken)` changed the
// parent of `tokens`; containers off the path are shared, not copied, so
// observers of untouched slices see the same objects (=== holds).
function editParent(doc, tokens, edit) {
  if (tokens.length === 0) throw patchError("the root has no parent");
  const [head, ...rest] = tokens;
  let copy;
  if (Array.isArray(doc)) copy = doc.slice();
  else if (doc !== null && typeof doc === "object") copy = Object.assign({}, doc);
  else throw patchError(`cannot go into ${JSON.stringify(doc)} at "${head}"`);
  if (rest.length === 0) {
    edit(copy, head);
    return copy;
  }
  let key = head;
  if (Array.isArray(copy)) key = arrayIndex(head, copy.length, false);
  else if (!Object.prototype.hasOwnProperty.call(copy, head)) throw patchError(`path does not exist at "${head}"`);
  copy[key] = editParent(copy[key], rest, edit);
  return copy;
}

function add(doc, tokens, value) {
  if (tokens.length === 0) return value;
  return editParent(doc, tokens, (parent, token) => {
    if (Array.isArray(parent)) parent.splice(arrayIndex(token, parent.length, true), 0, value);
    else parent[token] = value;
  });
}

function remove(doc, tokens) {
  if (tokens.length === 0) throw patchError("cannot remove the root");
  return editParent(doc, tokens, (parent, token) => {
    if (Array.isArray(parent)) parent.splice(arrayIndex(token, parent.length, false), 1);
    else if (Object.prototype.hasOwnProperty.call(parent, token)) delete parent[token];
    else throw patchError(`nothing to remove at "${token}"`);
  });
}

function replace(doc, tokens, value) {
  if (tokens.length === 0) return value;
  return editParent(doc, tokens, (parent, token) => {
    if (Array.isArray(parent)) parent[arrayIndex(token, parent.length, false)] = value;
    else if (Object.prototype.hasOwnProperty.call(parent, token)) parent[token] = value;
    else throw patchError(`nothing to replace at "${token}"`);
  });
}

function existing(doc, tokens, path) {
  const value = valueAt(doc, tokens);
  if (value === undefined) throw patchError(`path does not exist: ${path}`);
  return value;
}

/**
 * Applies RFC 6902 operations (all six: add, remove, replace, move, copy,
 * test) to `doc` and returns the new document; `doc` itself is never changed,
 * so a failing patch leaves the mirror as it was (all or nothing).
 * @param {unknown} doc a JSON value
 * @param {Array<object>} ops e.g. [{ op: "replace", path: "/0/done", value: true }]
 * @returns {unknown} the patched document; untouched slices are shared with `doc`
 * @throws {StateSyncError} code `bad_patch`, naming the failing operation
 */
export function applyPatch(doc, ops) {
  if (!Array.isArray(ops)) throw patchError(`ops must be an array of operations, not ${describe(ops)}`);
  let result = doc;
  ops.forEach((op, index) => {
    try {
      const tokens = parsePointer(op.path);
      switch (op.op) {
        case "add": result = add(result, tokens, op.value); break;
        case "remove": result = remove(result, tokens); break;
        case "replace": result = replace(result, tokens, op.value); break;
        case "move": {
          const from = parsePointer(op.from);
          if (from.length < tokens.length && from.every((t, i) => t === tokens[i])) {
            throw patchError(`cannot move ${op.from} into its own child ${op.path}`);
          }
          const value = existing(result, from, op.from);
          result = add(remove(result, from), tokens, value);
          break;
        }
        case "copy": result = add(result, tokens, existing(result, parsePointer(op.from), op.from)); break;
        case "test":
          if (!jsonEqual(valueAt(result, tokens), op.value)) throw patchError(`test failed at ${op.path}`);
          break;
        default: throw patchError(`unknown op ${JSON.stringify(op.op)}`);
      }
    } catch (error) {
      throw patchError(`operation ${index} (${op.op} ${op.path}): ${error.message}`);
    }
  });
  return result;
}

// MARK: Client

/** An error from the server (`reject`, `error`) or the client, with its protocol `code`. */
export class StateSyncError extends Error {
  /**
   * @param {string} code the protocol's code (`not_found`, `unauthorized`, …)
   *   or the client's own (`closed`, `bad_patch`, `invalid_path`, `invalid_action`)
   * @param {string} message what went wrong, kept as `detail`; `message` is "code: detail"
   */
  constructor(code, message) {
    super(`${code}: ${message}`);
    this.name = "StateSyncError";
    /** @type {string} */
    this.code = code;
    /** @type {string} */
    this.detail = message;
  }
}

/** Why the client stopped for good: the server refused this session (bad token, no hello). */
const fatalCodes = new Set(["unauthorized", "hello_required", "upgrade_required"]);

function randomId() {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// Argument checks: a wrong argument fails at the call, with a TypeError
// naming it, rather than later inside a message handler.

function describe(value) {
  if (value === null || value === undefined) return String(value);
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return "an array";
  return `${typeof value === "object" ? "an" : "a"} ${typeof value}`;
}

function requireFunction(value, what) {
  if (typeof value !== "function") throw new TypeError(`${what} must be a function, not ${describe(value)}`);
}

function optionalFunction(value, what) {
  if (value !== undefined && value !== null) requireFunction(value, what);
}

function optionalString(value, what) {
  if (value !== undefined && value !== null && typeof value !== "string") {
    throw new TypeError(`${what} must be a string, not ${describe(value)}`);
  }
}

function webSocketURL(text) {
  let url;
  try {
    url = new URL(text);
  } catch {
    throw new TypeError(`StateSyncClient: ${JSON.stringify(text)} is not a URL (expected ws://HOST:PORT/sync)`);
  }
  if (url.protocol !== "ws:" && url.protocol !== "wss:") {
    throw new TypeError(`StateSyncClient: ${JSON.stringify(text)} is not a ws:// or wss:// URL`);
  }
  return text;
}

function backoffOption(backoff) {
  if (backoff !== undefined && backoff !== null && typeof backoff !== "object") {
    throw new TypeError(`options.backoff must be an object { initialMs, maxMs }, not ${describe(backoff)}`);
  }
  const result = { initialMs: 250, maxMs: 10_000, ...(backoff ?? {}) };
  for (const key of ["initialMs", "maxMs"]) {
    if (!Number.isFinite(result[key]) || result[key] < 0) {
      throw new TypeError(`options.backoff.${key} must be a number of milliseconds (0 or more), not ${describe(result[key])}`);
    }
  }
  return result;
}

/** Set by StateSyncClient's static block: how an OptimisticMirror hooks into a client without a public member. */
let attachMirror;
/** Set by StateSyncClient's static block: how a StateSyncStore reaches its client's internals. */
let storeAccess;
/** Only client.store(name) makes a StateSyncStore. */
const storeKey = Symbol("StateSyncStore");

/** The store a message without `store` is about. */
const MAIN = "main";
const STORE_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const STORE_RULE = "a store name is 1 to 64 characters of a-z, 0-9, \".\", \"_\" and \"-\", starting with a letter or a digit";

/**
 * `name` when it is a valid store name (docs/PROTOCOL.md, "Stores").
 * @throws {TypeError} when it is not a string
 * @throws {StateSyncError} code `invalid_store`, naming the rule
 */
function storeName(name) {
  if (typeof name !== "string") throw new TypeError(`a store name must be a string, not ${describe(name)}`);
  if (!STORE_NAME.test(name)) throw new StateSyncError("invalid_store", `invalid store ${JSON.stringify(name)}: ${STORE_RULE}`);
  return name;
}

/** The key of a request or subscription: ids are per store. */
function keyOf(store, id) {
  return `${store} ${id}`; // a store name has no space
}

/**
 * A connection to a StateSync server with mirrors of its subscriptions.
 *
 * Connection states (`client.connection`, `onConnection(cb)`): "connecting",
 * "open", "reconnecting", "closed". It reconnects by itself with exponential
 * backoff and jitter, resumes each subscription with `since` in the same
 * epoch (a fresh snapshot in a new one), and re-sends unanswered dispatches
 * with their ids (the server's de-duplication makes them exactly-once).
 * Given several URLs (the nodes of a cluster), it moves to the next one
 * whenever a connection ends or fails; the backoff grows with each full
 * round of failures, so a dead node costs one short wait.
 */
export class StateSyncClient {
  #WebSocket;
  #urlIndex = 0;
  #connection = "closed";
  #welcome = null;
  #lastError = null;
  #socket = null;
  #attempt = 0;
  #timer = null;
  #stoppedBy = null;          // the StateSyncError that stopped the client for good (close, a refused hello)
  #stores = new Map();        // store name → { name, subscriptions, epoch, rev, probe, resuming, handle }
  #main;                      // the state of the store main (the client's own methods)
  #pending = new Map();       // keyOf(store, id) → { store, message, resolve, reject }
  #listeners = new Set();
  #mirrors = new Set();       // { store, hooks } of the attached OptimisticMirrors, told of dispatches, patches and answers
  #everSent = new Set();      // keys of unanswered dispatches sent on some connection (maybe applied)
  #inDoubt = new Set();       // keys of those sent on a connection that ended: `unavailable` is not their outcome
  #refusedInDoubt = new Set(); // keys of in-doubt dispatches refused `unavailable`, to send again
  #inDoubtTimer = null;
  #inDoubtRounds = 0;         // re-send rounds in a row (their backoff)
  #opened = null;
  #role = null;               // the session's role in main: the welcome's, then each authorized's
  #tokenInForce;              // the token the server holds the session to (what a refused refresh falls back to)
  #refreshes = new Map();     // auth id → { seq, token, resolve, reject }: refreshToken calls not answered yet
  #refreshCount = 0;          // refreshToken calls so far (the seq of the newest)
  #helloCount = 0;            // the refreshes the current connection's hello already carries
  #helloToken;                // the token that hello sent

  static {
    attachMirror = (client, store, hooks) => {
      const entry = { store, hooks };
      client.#mirrors.add(entry);
      return () => client.#mirrors.delete(entry);
    };
    storeAccess = {
      subscribe: (client, state, ...rest) => client.#subscribeIn(state, ...rest),
      observe: (client, state, ...rest) => client.#observeIn(state, ...rest),
      peek: (client, state, path) => client.#peekIn(state, path),
      get: (client, state, path) => client.#getIn(state, path),
      dispatch: (client, state, action) => client.#dispatchIn(state, action),
    };
  }

  /**
   * @param {string|string[]} url ws://HOST:PORT/sync (wss:// with TLS), or
   *   several (an array, or one string separated by commas): tried in turn;
   *   `client.url` is the one in use.
   * @param {object} [options]
   * @param {string} [options.token] sent in `hello` when the server requires one
   * @param {string} [options.name] the session's name in `hello` (presence, chat)
   * @param {string} [options.clientId] scopes action ids for exactly-once;
   *   default a random one, kept across reconnects (save it to keep it across reloads)
   * @param {{initialMs?: number, maxMs?: number}} [options.backoff] reconnect
   *   delays, default { initialMs: 250, maxMs: 10000 }: doubled per round of
   *   failures up to maxMs, then a random 50–100% of it
   * @param {number} [options.schemaVersion] the app schema version this build
   *   speaks, sent in `hello`: a server that needs a newer one stops the
   *   client (`upgrade_required`); a node older than it (`schema_too_new`,
   *   a rolling upgrade) is left for the next URL
   * @param {Function} [options.WebSocket] a WebSocket constructor, default the global one
   * @param {boolean} [options.autoConnect] connect at once (default true); else call connect()
   * @throws {TypeError} for no URL, a URL that is not ws:// or wss://, no
   *   WebSocket constructor, or a mistyped option
   */
  constructor(url, options = {}) {
    if (options === null || typeof options !== "object") {
      throw new TypeError(`StateSyncClient's options must be an object, not ${describe(options)}`);
    }
    /** @type {string[]} every URL given, in the order they are tried */
    this.urls = (Array.isArray(url) ? url : String(url).split(","))
      .map((each) => String(each).trim()).filter((each) => each !== "").map(webSocketURL);
    if (this.urls.length === 0) throw new TypeError("StateSyncClient needs at least one URL");
    optionalString(options.token, "options.token");
    optionalString(options.name, "options.name");
    optionalString(options.clientId, "options.clientId");
    /** @type {string|undefined} the token `hello` sends: options.token until refreshToken replaces it */
    this.token = options.token ?? undefined;
    this.#tokenInForce = this.token;
    /** @type {string|undefined} */
    this.name = options.name ?? undefined;
    /** @type {string} */
    this.clientId = options.clientId ?? `c-${randomId()}`;
    /** @type {{initialMs: number, maxMs: number}} */
    this.backoff = backoffOption(options.backoff);
    const schemaVersion = options.schemaVersion;
    if (schemaVersion !== undefined && !(Number.isInteger(schemaVersion) && schemaVersion >= 1 && schemaVersion <= 1_000_000)) {
      throw new TypeError(`options.schemaVersion must be an integer from 1 to 1000000, not ${describe(schemaVersion)}`);
    }
    /** @type {number|undefined} */
    this.schemaVersion = schemaVersion;
    optionalFunction(options.WebSocket, "options.WebSocket (a WebSocket constructor)");
    this.#WebSocket = options.WebSocket ?? globalThis.WebSocket;
    if (typeof this.#WebSocket !== "function") {
      throw new TypeError("StateSyncClient: no WebSocket here: pass options.WebSocket (a constructor), " +
        "or run Node 22 or later (Node 20 and 21: node --experimental-websocket)");
    }
    // Action ids are "<prefix>-a<n>": the server de-duplicates on (clientId, id),
    // so a new instance given a saved clientId must not reuse an earlier
    // instance's ids (it would get that action's remembered outcome, and its
    // own action would never be applied). 12 random hex digits per instance.
    /** @type {string} */
    this.actionIdPrefix = randomId().slice(0, 12);
    this.#main = this.#storeState(MAIN);
    // Nobody holds this promise: a close or a refused hello must not become an
    // unhandled rejection (fatal in Node); ready(), onConnection and lastError tell.
    if (options.autoConnect !== false) this.connect().catch(() => {});
  }

  /** @returns {string} the URL of the node in use, or being tried */
  get url() {
    return this.urls[this.#urlIndex];
  }

  /** @returns {"connecting"|"open"|"reconnecting"|"closed"} the connection's state */
  get connection() {
    return this.#connection;
  }

  /** @returns {object|null} the last `welcome`: { session, epoch, rev, role, server } */
  get welcome() {
    return this.#welcome;
  }

  /** @returns {number|null} the newest revision seen of `main` (of the current epoch) */
  get rev() {
    return this.#main.rev;
  }

  /**
   * @returns {"reader"|"writer"|"admin"|null} the session's role in `main`:
   *   the welcome's, then that of each refreshed token; null before the first
   *   welcome and when the token grants none there (a JWT for other stores)
   */
  get role() {
    return this.#role;
  }

  /** @returns {StateSyncError|null} the last error the server sent without an id (e.g. unauthorized) */
  get lastError() {
    return this.#lastError;
  }

  /**
   * Connects (again, after close()) and resolves with the `welcome` of the next session.
   * @returns {Promise<object>} the welcome message
   */
  connect() {
    this.#stoppedBy = null;
    if (!this.#socket) this.#open();
    return this.ready();
  }

  /**
   * Resolves with the current or next `welcome`; rejects when the client is
   * closed or the server refuses the session (`unauthorized`).
   * @returns {Promise<object>} the welcome message
   */
  ready() {
    if (this.#connection === "open") return Promise.resolve(this.#welcome);
    if (this.#stoppedBy) return Promise.reject(this.#stoppedBy);
    if (!this.#opened) {
      let resolve, reject;
      const promise = new Promise((res, rej) => { resolve = res; reject = rej; });
      this.#opened = { promise, resolve, reject };
    }
    return this.#opened.promise;
  }

  /**
   * Replaces the session's token in place (`auth`), e.g. a JWT refreshed
   * before the one in use expires: subscriptions, mirrors and pending
   * requests stay (a subscription the new token no longer grants ends, its
   * onError told `forbidden`), `role` becomes the new token's role in `main`,
   * and later reconnects send this token in `hello`. Made while
   * disconnected, it is kept for the next `hello` and resolves once that
   * session is welcomed.
   *
   *   await client.refreshToken(await fetchNewJWT());
   *
   * @param {string} token the new token (a JWT, or a token of the server's list)
   * @returns {Promise<void>} resolves once the server holds the session to it;
   *   rejects with a StateSyncError `unauthorized` when the server refuses it
   *   (the connection goes on, under the token in force, which `token` is
   *   again), or `closed`
   * @throws {TypeError} when token is not a non-empty string
   */
  refreshToken(token) {
    if (typeof token !== "string" || token === "") {
      throw new TypeError(`refreshToken's token must be a non-empty string, not ${describe(token)}`);
    }
    if (this.#stoppedBy) return Promise.reject(this.#stoppedBy);
    this.token = token;
    const seq = ++this.#refreshCount;
    const id = `t${seq}`;
    return new Promise((resolve, reject) => {
      this.#refreshes.set(id, { seq, token, resolve, reject });
      this.#send({ type: "auth", id, token });
    });
  }

  /** Closes for good: no reconnect; pending requests fail with code "closed". */
  close() {
    this.#stoppedBy = new StateSyncError("closed", "the client was closed");
    clearTimeout(this.#timer);
    clearTimeout(this.#inDoubtTimer);
    if (this.#socket) this.#socket.close(1000);
    this.#socket = null;
    this.#fail(this.#stoppedBy);
    this.#setConnection("closed");
  }

  /**
   * Calls `callback(state)` now and on every connection-state change.
   * @param {(state: string) => void} callback
   * @returns {() => void} stops the calls
   */
  onConnection(callback) {
    requireFunction(callback, "onConnection's callback");
    this.#listeners.add(callback);
    callback(this.#connection);
    return () => this.#listeners.delete(callback);
  }

  /**
   * Opens a subscription at `path` (JSON Pointer, "" = whole state) of the
   * store `main` and calls `callback(value, rev)` with its snapshot and
   * after each patch that changes it (`value` is null while nothing is at
   * `path`). `client.store(name).subscribe(…)` does the same in another store.
   * @param {string} path
   * @param {(value: unknown, rev: number) => void} [callback]
   * @param {(error: StateSyncError) => void} [onError] the server's refusal
   *   (`forbidden`, `invalid_path`, `too_many_subscriptions`); the subscription is then gone
   * @returns {{id: string, path: string, store: string, value: unknown, rev: number|null, close: () => void}}
   *   the live subscription: `value` and `rev` are its mirror (undefined and
   *   null until the snapshot); close() unsubscribes
   * @throws {StateSyncError} `invalid_path` for a malformed pointer
   */
  subscribe(path, callback, onError) {
    return this.#subscribeIn(this.#main, path, callback, onError);
  }

  /**
   * Observes the value at `path` (of `main`), calling `callback(value, rev)` with the
   * current value and then only when it changes (null while nothing is
   * there). The value is read from the mirror of an open subscription
   * containing `path` (so `/todos/0/title` rides on a subscription to
   * `/todos`); without one, a subscription at `path` is opened and closed
   * with its last observer.
   * @param {string} path
   * @param {(value: unknown, rev: number) => void} callback
   * @param {(error: StateSyncError) => void} [onError] the server's refusal
   *   of a subscription this opened (`forbidden`, `invalid_path`)
   * @returns {() => void} stops observing
   * @throws {StateSyncError} `invalid_path` for a malformed pointer
   */
  observe(path, callback, onError) {
    return this.#observeIn(this.#main, path, callback, onError);
  }

  /**
   * The value at `path` (of `main`) now, from the mirror of a subscription containing it.
   * @param {string} path
   * @returns {unknown} the value (null when nothing is there), or undefined
   *   when no subscription with a snapshot contains `path`
   */
  peek(path) {
    return this.#peekIn(this.#main, path);
  }

  /**
   * One-shot read (`get`) of `main`; made while disconnected, it is sent on reconnect.
   * @param {string} path
   * @returns {Promise<{rev: number, value: unknown}>} rejects with a
   *   StateSyncError (`forbidden`, `closed`, …)
   * @throws {StateSyncError} `invalid_path` for a malformed pointer
   */
  get(path) {
    return this.#getIn(this.#main, path);
  }

  /**
   * Sends an action ({ type, ...fields }) to `main`; resolves with { rev } once the
   * server acknowledged it (durable), rejects with a StateSyncError carrying
   * the server's `code` and message (`not_found`, `invalid_action`, …).
   * Made while disconnected, it is sent on reconnect. Its id is
   * "<actionIdPrefix>-a<n>", unique across instances that share a clientId.
   * Sent on a connection that ended unanswered, it may have been applied: an
   * `unavailable` refusal then is not its outcome, and it is sent again (with
   * the backoff) until another answer comes.
   * @param {{type: string}} action
   * @returns {Promise<{rev: number}>} the revision it was applied at
   */
  dispatch(action) {
    return this.#dispatchIn(this.#main, action);
  }

  /**
   * An optimistic mirror of the whole state of `main`: this client's dispatches show
   * at once. Same as `new OptimisticMirror(client, reducer, onChange)`.
   * @param {(state: unknown, action: object, meta: object) => unknown} reducer
   *   the app's reducer ported to JS: returns the new state, throws to reject
   * @param {(state: unknown, view: {confirmed: unknown, pending: number}) => void} [onChange]
   *   gets each new predicted state
   * @returns {OptimisticMirror}
   */
  optimistic(reducer, onChange) {
    return new OptimisticMirror(this, reducer, onChange);
  }

  /**
   * The store `name` of the server over this connection: the same
   * subscribe, observe, peek, get, dispatch and optimistic as the client's
   * own (which are the store `main`'s). Ids are per store; each store
   * resumes on its own after a reconnect (`since` within its epoch). The
   * same name gives the same object; `store("main")` is the client's own store.
   * @param {string} name 1 to 64 of a-z 0-9 . _ -, starting with a letter or a digit
   * @returns {StateSyncStore}
   * @throws {StateSyncError} `invalid_store` for a name outside that rule
   * @throws {TypeError} for a name that is not a string
   */
  store(name) {
    return this.#storeState(storeName(name)).handle;
  }

  // MARK: Internals

  #storeState(name) {
    let state = this.#stores.get(name);
    if (!state) {
      // subscriptions: id → { id, path, value, rev, callbacks, observers, onError, handle }
      // counter: the store's own ids (s1, g2, <prefix>-a3, …); ids are per store
      state = { name, subscriptions: new Map(), counter: 0, epoch: null, rev: null, probe: null, resuming: null, handle: null };
      state.handle = new StateSyncStore(storeKey, this, state);
      this.#stores.set(name, state);
    }
    return state;
  }

  /** `message` for `state`'s store: `store` is named unless it is main. */
  #addressed(state, message) {
    if (state.name === MAIN) return message;
    const { type, ...rest } = message;
    return { type, store: state.name, ...rest };
  }

  #subscribeIn(state, path, callback, onError) {
    parsePointer(path);
    optionalFunction(callback, "subscribe's callback");
    optionalFunction(onError, "subscribe's onError");
    const id = `s${++state.counter}`;
    const record = {
      id, path, value: undefined, rev: null, callbacks: new Set(callback ? [callback] : []), onError,
      observers: new Set(),
    };
    record.handle = {
      id,
      path,
      store: state.name,
      get value() { return record.value; },
      get rev() { return record.rev; },
      close: () => this.#unsubscribe(state, record),
    };
    state.subscriptions.set(id, record);
    this.#sendSubscribe(state, record, false);
    return record.handle;
  }

  #observeIn(state, path, callback, onError) {
    const tokens = parsePointer(path);
    requireFunction(callback, "observe's callback");
    optionalFunction(onError, "observe's onError");
    let owner = null;
    for (const record of state.subscriptions.values()) {
      const relative = relativeTokens(record.path, path);
      if (relative && (!owner || parsePointer(owner.path).length < parsePointer(record.path).length)) {
        owner = record;
      }
    }
    const ownsSubscription = !owner;
    if (!owner) owner = state.subscriptions.get(this.#subscribeIn(state, path, undefined, onError).id);
    const observer = { relative: tokens.slice(parsePointer(owner.path).length), callback, last: undefined, seen: false };
    owner.observers.add(observer);
    if (owner.rev !== null) this.#notifyObserver(owner, observer);
    return () => {
      owner.observers.delete(observer);
      if (ownsSubscription && owner.observers.size === 0 && owner.callbacks.size === 0) this.#unsubscribe(state, owner);
    };
  }

  #peekIn(state, path) {
    for (const record of state.subscriptions.values()) {
      const relative = relativeTokens(record.path, path);
      if (relative && record.rev !== null) return valueAt(record.value, relative) ?? null;
    }
    return undefined;
  }

  #getIn(state, path) {
    parsePointer(path);
    return this.#request(state, this.#addressed(state, { type: "get", id: `g${++state.counter}`, path }));
  }

  #dispatchIn(state, action) {
    if (action === null || typeof action !== "object" || typeof action.type !== "string") {
      return Promise.reject(new StateSyncError("invalid_action", "an action is an object with a string \"type\""));
    }
    try {
      JSON.stringify(action);
    } catch (error) {
      return Promise.reject(new StateSyncError("invalid_action", `the action does not encode as JSON: ${error.message}`));
    }
    const message = this.#addressed(state, { type: "dispatch", id: `${this.actionIdPrefix}-a${++state.counter}`, action });
    for (const mirror of this.#mirrors) if (mirror.store === state.name) mirror.hooks.enqueue(message.id, action);
    return this.#request(state, message);
  }

  #setConnection(state) {
    if (this.#connection === state) return;
    this.#connection = state;
    for (const listener of this.#listeners) listener(state);
  }

  #open() {
    this.#setConnection(this.#attempt === 0 && !this.#welcome ? "connecting" : "reconnecting");
    let socket;
    try {
      socket = new this.#WebSocket(this.url, ["statesync.v1"]);
    } catch (error) {
      this.#scheduleReconnect();
      return;
    }
    this.#socket = socket;
    socket.onopen = () => {
      this.#helloCount = this.#refreshCount;
      this.#helloToken = this.token;
      const hello = { type: "hello", clientId: this.clientId };
      if (this.token) hello.token = this.token;
      if (this.name) hello.name = this.name;
      if (this.schemaVersion !== undefined) hello.schemaVersion = this.schemaVersion;
      socket.send(JSON.stringify(hello));
    };
    socket.onmessage = (event) => {
      if (socket !== this.#socket) return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      if (message === null || typeof message !== "object") return;
      this.#receive(message);
    };
    const ended = () => {
      if (socket !== this.#socket) return;
      this.#socket = null;
      if (this.#stoppedBy) return;
      this.#scheduleReconnect();
    };
    socket.onclose = ended;
    // An error ends the socket too: some WebSockets (Node 20's) fire no
    // `close` after a connection that failed to open.
    socket.onerror = () => {
      if (socket !== this.#socket) return;
      ended();
      try {
        socket.close(); // may fire `error` again: this socket is not current any more
      } catch {
        // already closing
      }
    };
  }

  #scheduleReconnect() {
    if (this.#stoppedBy) return;
    this.#setConnection("reconnecting");
    this.#urlIndex = (this.#urlIndex + 1) % this.urls.length;
    const round = Math.floor(this.#attempt / this.urls.length);
    const ceiling = Math.min(this.backoff.maxMs, this.backoff.initialMs * 2 ** round);
    const delay = ceiling * (0.5 + Math.random() * 0.5);
    this.#attempt += 1;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => { if (!this.#stoppedBy && !this.#socket) this.#open(); }, delay);
  }

  #send(message) {
    if (!this.#socket || this.#connection !== "open") return false;
    this.#socket.send(JSON.stringify(message));
    return true;
  }

  #request(state, message) {
    return new Promise((resolve, reject) => {
      const key = keyOf(state.name, message.id);
      this.#pending.set(key, { store: state.name, message, resolve, reject });
      if (this.#send(message) && message.type === "dispatch") this.#everSent.add(key);
    });
  }

  #answered(state, id) {
    const key = keyOf(state.name, id);
    this.#everSent.delete(key);
    this.#inDoubt.delete(key);
    this.#refusedInDoubt.delete(key);
    if (this.#inDoubt.size === 0) this.#inDoubtRounds = 0;
    for (const mirror of this.#mirrors) if (mirror.store === state.name) mirror.hooks.settle(id);
  }

  /**
   * An in-doubt dispatch (sent on a connection that ended unanswered) was
   * refused `unavailable`: that says only that this send was not applied,
   * while the earlier one may have been. It stays pending and is sent again
   * after a backoff, until an `ack` or another `reject` decides it.
   */
  #retryInDoubt(key) {
    this.#refusedInDoubt.add(key);
    if (this.#inDoubtTimer !== null) return; // the planned round sends it too
    this.#inDoubtRounds += 1;
    const ceiling = Math.min(this.backoff.maxMs, this.backoff.initialMs * 2 ** (this.#inDoubtRounds - 1));
    this.#inDoubtTimer = setTimeout(() => {
      this.#inDoubtTimer = null;
      for (const refused of this.#refusedInDoubt) {
        const pending = this.#pending.get(refused);
        if (!pending || this.#send(pending.message)) this.#refusedInDoubt.delete(refused);
      }
    }, ceiling * (0.5 + Math.random() * 0.5));
  }

  #fail(error) {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
    for (const refresh of this.#refreshes.values()) refresh.reject(error);
    this.#refreshes.clear();
    if (this.#opened) {
      this.#opened.reject(error);
      this.#opened = null;
    }
  }

  #sendSubscribe(state, record, resume) {
    const message = this.#addressed(state, { type: "subscribe", id: record.id, path: record.path });
    if (resume && record.rev !== null) message.since = record.rev;
    this.#send(message);
  }

  #unsubscribe(state, record) {
    if (state.subscriptions.get(record.id) !== record) return;
    state.subscriptions.delete(record.id);
    this.#send(this.#addressed(state, { type: "unsubscribe", id: record.id }));
  }

  #seen(state, rev) {
    if (typeof rev === "number" && (state.rev === null || rev > state.rev)) state.rev = rev;
  }

  /**
   * A store's epoch, as a snapshot or value of it tells (main's comes in
   * `welcome`). A different one than before means a new history of that
   * store: its revisions so far mean nothing, so its other subscriptions
   * start over (the one `except` the message is about has its fresh value).
   */
  #learnEpoch(state, epoch, except) {
    if (state.name === MAIN || typeof epoch !== "string" || state.epoch === epoch) return;
    const changed = state.epoch !== null;
    state.epoch = epoch;
    if (!changed) return;
    state.rev = null;
    for (const record of state.subscriptions.values()) {
      if (record === except || record.rev === null) continue;
      record.rev = null;
      this.#sendSubscribe(state, record, false);
    }
  }

  #receive(message) {
    this.#handle(message);
    const store = typeof message.store === "string" ? message.store : MAIN;
    for (const mirror of this.#mirrors) {
      if (message.type !== "welcome" && mirror.store !== store) continue;
      let inFlight = false;
      for (const request of this.#pending.values()) {
        if (request.store === mirror.store && request.message.type === "dispatch") inFlight = true;
      }
      mirror.hooks.after(message, inFlight);
    }
  }

  #handle(message) {
    if (message.type === "welcome") return this.#welcomed(message);
    if (message.type === "authorized") return this.#authorized(message);
    if (message.type === "error" && this.#refreshes.has(message.id) && typeof message.store !== "string") {
      return this.#refused(message);
    }
    // Messages about a store other than main name it; ids are per store.
    const state = this.#stores.get(typeof message.store === "string" ? message.store : MAIN);
    if (!state) return; // a store this client never used
    switch (message.type) {
      case "snapshot": return this.#snapshot(state, message);
      case "patch": return this.#patch(state, message);
      case "value":
        if (state.probe !== null && state.probe === message.id) return this.#probed(state, message);
        this.#learnEpoch(state, message.epoch, null);
        // falls through
      case "ack": {
        this.#seen(state, message.rev);
        const key = keyOf(state.name, message.id);
        const pending = this.#pending.get(key);
        if (!pending) return;
        this.#pending.delete(key);
        this.#answered(state, message.id);
        pending.resolve(message.type === "ack" ? { rev: message.rev } : { rev: message.rev, value: message.value });
        return;
      }
      case "reject": {
        const key = keyOf(state.name, message.id);
        const pending = this.#pending.get(key);
        if (!pending) return;
        if (message.code === "unavailable" && this.#inDoubt.has(key)) return this.#retryInDoubt(key);
        this.#pending.delete(key);
        this.#answered(state, message.id);
        pending.reject(new StateSyncError(message.code, message.message));
        return;
      }
      case "error": return this.#error(state, message);
      case "unsubscribed": return this.#unsubscribed(state, message);
      default: return; // types added later
    }
  }

  #welcomed(message) {
    const previous = this.#welcome;
    const main = this.#main;
    this.#welcome = message;
    this.#role = message.role ?? null;
    this.#attempt = 0;
    // Revisions compare only within one epoch: a new one means a new history.
    const sameHistory = previous !== null && previous.epoch === message.epoch;
    if (!sameHistory && previous !== null) main.rev = message.rev;
    main.epoch = message.epoch;
    this.#seen(main, message.rev);
    this.#setConnection("open");
    for (const record of main.subscriptions.values()) {
      if (!sameHistory) record.rev = null;
      this.#sendSubscribe(main, record, sameHistory);
    }
    for (const state of this.#stores.values()) if (state !== main) this.#resume(state);
    // Dispatches sent before the drop may have been applied: not predicted until answered.
    for (const mirror of this.#mirrors) {
      const ids = new Set();
      for (const key of this.#everSent) {
        const pending = this.#pending.get(key);
        if (pending && pending.store === mirror.store) ids.add(pending.message.id);
      }
      if (ids.size > 0) mirror.hooks.doubt(ids);
    }
    for (const key of this.#everSent) this.#inDoubt.add(key);
    this.#refusedInDoubt.clear(); // all sent again now
    for (const [key, pending] of this.#pending) {
      if (this.#send(pending.message) && pending.message.type === "dispatch") this.#everSent.add(key);
    }
    this.#refreshesWelcomed();
    if (this.#opened) {
      this.#opened.resolve(message);
      this.#opened = null;
    }
  }

  /**
   * A session was welcomed: its `hello` carried the token of the refreshes
   * made before it was sent (the newest one's), which are done; those made
   * since are sent as `auth` now.
   */
  #refreshesWelcomed() {
    this.#tokenInForce = this.#helloToken;
    for (const [id, refresh] of this.#refreshes) {
      if (refresh.seq > this.#helloCount) {
        this.#send({ type: "auth", id, token: refresh.token });
        continue;
      }
      this.#refreshes.delete(id);
      refresh.resolve();
    }
  }

  /** The server put the token of `auth` `message.id` in force. */
  #authorized(message) {
    const refresh = this.#refreshes.get(message.id);
    if (!refresh) return;
    this.#refreshes.delete(message.id);
    this.#tokenInForce = refresh.token;
    this.#role = message.role ?? null;
    refresh.resolve();
  }

  /** The server refused the token of `auth` `message.id`: the one in force stays, for later hellos too. */
  #refused(message) {
    const refresh = this.#refreshes.get(message.id);
    this.#refreshes.delete(message.id);
    if (refresh.seq === this.#refreshCount) this.token = this.#tokenInForce;
    refresh.reject(new StateSyncError(message.code, message.message));
  }

  /**
   * The server ended a subscription the client did not close (the session's
   * refreshed token no longer grants it): it is gone, its onError is told.
   */
  #unsubscribed(state, message) {
    const record = state.subscriptions.get(message.id);
    if (!record) return; // the answer to the client's own unsubscribe
    state.subscriptions.delete(message.id);
    const error = new StateSyncError("forbidden", `the server ended the subscription to ${JSON.stringify(record.path)}: the session's token no longer grants it`);
    if (record.onError) record.onError(error);
  }

  /**
   * Resumes a store other than main on a new connection. `welcome` tells
   * main's epoch only, and a `since` compares only within the store's
   * epoch, so when there is a revision to resume from, a `get` of one of
   * its paths asks the epoch first (#probed); otherwise its subscriptions
   * start over at once.
   */
  #resume(state) {
    state.probe = null;
    state.resuming = null;
    const records = [...state.subscriptions.values()];
    const resumable = records.find((record) => record.rev !== null);
    if (state.epoch === null || !resumable) {
      for (const record of records) this.#sendSubscribe(state, record, false);
      return;
    }
    state.probe = `e${++state.counter}`;
    state.resuming = new Set(records);
    this.#send(this.#addressed(state, { type: "get", id: state.probe, path: resumable.path }));
  }

  /** The answer to #resume's `get`: resume with `since` in the same epoch, else start over. */
  #probed(state, message) {
    const sameHistory = typeof message.epoch === "string" && message.epoch === state.epoch;
    this.#finishResume(state, sameHistory);
    if (!sameHistory && typeof message.epoch === "string") state.epoch = message.epoch;
    this.#seen(state, message.rev);
  }

  #finishResume(state, sameHistory) {
    const resuming = state.resuming ?? new Set();
    state.probe = null;
    state.resuming = null;
    if (!sameHistory) state.rev = null;
    for (const record of state.subscriptions.values()) {
      if (!resuming.has(record)) continue; // opened since: subscribed already
      if (!sameHistory) record.rev = null;
      this.#sendSubscribe(state, record, sameHistory);
    }
  }

  #snapshot(state, message) {
    const record = state.subscriptions.get(message.id);
    this.#learnEpoch(state, message.epoch, record);
    this.#seen(state, message.rev);
    if (!record) return;
    record.value = message.value;
    record.rev = message.rev;
    this.#changed(record);
  }

  #patch(state, message) {
    const record = state.subscriptions.get(message.id);
    this.#seen(state, message.rev);
    if (!record) return;
    if (record.rev !== message.base) {
      // A gap: something was missed. Start this subscription over.
      record.rev = null;
      this.#sendSubscribe(state, record, false);
      return;
    }
    try {
      record.value = applyPatch(record.value, message.ops);
    } catch (error) {
      record.rev = null;
      this.#sendSubscribe(state, record, false);
      return;
    }
    record.rev = message.rev;
    if (message.ops.length > 0) this.#changed(record);
  }

  #error(state, message) {
    const error = new StateSyncError(message.code, message.message);
    if (message.id !== undefined && message.id !== null) {
      const target = typeof message.store === "string" ? state : this.#storeOfError(message.id);
      if (target && this.#errorFor(target, message.id, error)) return;
    }
    this.#lastError = error;
    if (fatalCodes.has(message.code)) {
      this.#stoppedBy = error;
      this.#fail(error);
      this.#setConnection("closed");
    }
  }

  /**
   * The store an error without `store` is about. The protocol says main;
   * but a server may leave `store` out of its errors about other stores
   * (this one's `forbidden`, `too_many_subscriptions`, `invalid_path`,
   * `bad_request` do), so it goes to the store awaiting an answer with this
   * id (a request, a subscription before its snapshot, a resume probe): main
   * first, else the only other one, else main when it has a subscription
   * with this id (refused when re-subscribed).
   */
  #storeOfError(id) {
    const main = this.#main;
    if (this.#awaits(main, id)) return main;
    const waiting = [...this.#stores.values()].filter((state) => state !== main && this.#awaits(state, id));
    if (waiting.length === 1) return waiting[0];
    return main;
  }

  /** Whether `state` awaits an answer with the id `id`: a request, a subscription's snapshot, a resume probe. */
  #awaits(state, id) {
    if (state.probe === id || this.#pending.has(keyOf(state.name, id))) return true;
    const record = state.subscriptions.get(id);
    return record !== undefined && record.rev === null;
  }

  /** Hands `error` to what of `state` has the id `id`; false when nothing has it. */
  #errorFor(state, id, error) {
    if (state.probe !== null && state.probe === id) {
      this.#finishResume(state, false); // the epoch is not known: start over
      return true;
    }
    const record = state.subscriptions.get(id);
    if (record) {
      state.subscriptions.delete(id);
      if (record.onError) record.onError(error);
      return true;
    }
    const key = keyOf(state.name, id);
    const pending = this.#pending.get(key);
    if (pending) {
      this.#pending.delete(key);
      this.#answered(state, id);
      pending.reject(error);
      return true;
    }
    return false;
  }

  #changed(record) {
    for (const callback of record.callbacks) callback(record.value, record.rev);
    for (const observer of record.observers) this.#notifyObserver(record, observer);
  }

  #notifyObserver(record, observer) {
    const found = valueAt(record.value, observer.relative);
    const value = found === undefined ? null : found;
    if (observer.seen && (observer.last === value || jsonEqual(observer.last, value))) return;
    observer.seen = true;
    observer.last = value;
    observer.callback(value, record.rev);
  }
}

/**
 * One store of the server, over its client's connection (made by
 * `client.store(name)`): the client's reading and writing API for that
 * store. Subscriptions, requests and their ids are this store's own; after
 * a reconnect it resumes on its own (`since` within its epoch; a new epoch
 * of this store starts only its mirrors over).
 *
 *   const team = client.store("team-42");
 *   team.observe("/todos", (todos) => render(todos));
 *   await team.dispatch({ type: "addTodo", title: "Milk" });
 */
export class StateSyncStore {
  #client;
  #state;

  /** Made by `client.store(name)` only. */
  constructor(key, client, state) {
    if (key !== storeKey) throw new TypeError("a StateSyncStore is made by client.store(name)");
    this.#client = client;
    this.#state = state;
  }

  /** @returns {string} the store's name */
  get name() {
    return this.#state.name;
  }

  /** @returns {StateSyncClient} the client (the connection) it works over */
  get client() {
    return this.#client;
  }

  /** @returns {string|null} the store's epoch, once a snapshot or value of it (main: `welcome`) told it */
  get epoch() {
    return this.#state.epoch;
  }

  /** @returns {number|null} the newest revision of this store seen (of its current epoch) */
  get rev() {
    return this.#state.rev;
  }

  /**
   * As `client.subscribe`, in this store.
   * @param {string} path
   * @param {(value: unknown, rev: number) => void} [callback]
   * @param {(error: StateSyncError) => void} [onError]
   * @returns {{id: string, path: string, store: string, value: unknown, rev: number|null, close: () => void}}
   */
  subscribe(path, callback, onError) {
    return storeAccess.subscribe(this.#client, this.#state, path, callback, onError);
  }

  /**
   * As `client.observe`, in this store.
   * @param {string} path
   * @param {(value: unknown, rev: number) => void} callback
   * @param {(error: StateSyncError) => void} [onError]
   * @returns {() => void} stops observing
   */
  observe(path, callback, onError) {
    return storeAccess.observe(this.#client, this.#state, path, callback, onError);
  }

  /**
   * As `client.peek`, in this store's mirrors.
   * @param {string} path
   * @returns {unknown}
   */
  peek(path) {
    return storeAccess.peek(this.#client, this.#state, path);
  }

  /**
   * As `client.get`, in this store.
   * @param {string} path
   * @returns {Promise<{rev: number, value: unknown}>}
   */
  get(path) {
    return storeAccess.get(this.#client, this.#state, path);
  }

  /**
   * As `client.dispatch`, to this store.
   * @param {{type: string}} action
   * @returns {Promise<{rev: number}>}
   */
  dispatch(action) {
    return storeAccess.dispatch(this.#client, this.#state, action);
  }

  /**
   * An optimistic mirror of this store's whole state; same as `new OptimisticMirror(store, reducer, onChange)`.
   * @param {(state: unknown, action: object, meta: object) => unknown} reducer
   * @param {(state: unknown, view: {confirmed: unknown, pending: number}) => void} [onChange]
   * @returns {OptimisticMirror}
   */
  optimistic(reducer, onChange) {
    return new OptimisticMirror(this, reducer, onChange);
  }
}

/**
 * A mirror of the whole state that shows this client's own actions at once
 * (made by `client.optimistic(reducer, onChange)`): it keeps the server's
 * confirmed state and the actions not answered yet, applies them with the
 * app's reducer on top (the prediction), and rebases them on every patch.
 * An ack removes an action (its effect is confirmed by then: the server sends
 * the patches first), a reject removes it and the prediction rolls back. A
 * patch that comes while dispatches are in flight is shown with the next
 * message (normally their ack) or after 50 ms, so an acked action is never
 * shown twice; a dispatch sent before a dropped connection (maybe applied
 * without its ack) is left out of the prediction once re-sent, until its
 * answer. `meta` is predicted: { revision: confirmed rev + place in the
 * queue, clientId, time: when dispatched here (ISO 8601), session: { id, name } };
 * the server's patches correct what differs (ids made from the revision, times).
 */
export class OptimisticMirror {
  #reducer;
  #onChange;
  #confirmed = undefined;  // the server's state (undefined until the snapshot)
  #rev = null;             // its revision
  #pending = [];           // [{ id, action, time, inDoubt }] in the order dispatched
  #state = undefined;      // the prediction
  #grace = null;
  #shown = undefined;
  #subscription;
  #detach;
  #target;                 // the client or store it subscribes and dispatches through

  /**
   * Subscribes to the whole state ("") and hooks into the client's dispatches.
   * @param {StateSyncClient|StateSyncStore} client the client (its store
   *   main), or one of its stores (`client.store(name)`)
   * @param {(state: unknown, action: object, meta: object) => unknown} reducer
   *   the app's reducer ported to JS: gets a copy of the state, returns the
   *   new state, throws to predict a reject
   * @param {(state: unknown, view: {confirmed: unknown, pending: number}) => void} [onChange]
   *   gets each new predicted state, with the confirmed one and how many
   *   actions are pending
   * @throws {TypeError} when client is not a StateSyncClient or a StateSyncStore, or reducer not a function
   */
  constructor(client, reducer, onChange) {
    if (!(client instanceof StateSyncClient) && !(client instanceof StateSyncStore)) {
      throw new TypeError(`OptimisticMirror needs a StateSyncClient or a StateSyncStore, not ${describe(client)}`);
    }
    requireFunction(reducer, "the optimistic mirror's reducer");
    optionalFunction(onChange, "the optimistic mirror's onChange");
    this.#target = client;
    /** @type {StateSyncClient} the client it mirrors and dispatches through */
    this.client = client instanceof StateSyncStore ? client.client : client;
    /** @type {string} the store it mirrors */
    this.store = client instanceof StateSyncStore ? client.name : MAIN;
    this.#reducer = reducer;
    this.#onChange = onChange;
    this.#subscription = client.subscribe("", (value, rev) => {
      this.#confirmed = value;
      this.#rev = rev;
      this.#rebase();
    });
    this.#detach = attachMirror(this.client, this.store, {
      enqueue: (id, action) => this.#enqueue(id, action),
      doubt: (ids) => this.#doubt(ids),
      settle: (id) => this.#settle(id),
      after: (message, inFlight) => this.#after(message, inFlight),
    });
  }

  /** @returns {unknown} the predicted state: confirmed plus pending actions (undefined until the snapshot) */
  get state() {
    return this.#state;
  }

  /** @returns {unknown} the server's state as last confirmed (undefined until the snapshot) */
  get confirmed() {
    return this.#confirmed;
  }

  /** @returns {number|null} the revision of `confirmed` */
  get rev() {
    return this.#rev;
  }

  /**
   * @returns {Array<{id: string, action: object, time: string, inDoubt: boolean}>}
   *   the actions not answered yet, in the order dispatched (a copy);
   *   `inDoubt` ones (re-sent after a drop) are left out of the prediction
   */
  get pending() {
    return this.#pending.map(({ id, action, time, inDoubt }) => ({ id, action, time, inDoubt }));
  }

  /**
   * Dispatches `action` through the client (to its store): shown at once.
   * @param {{type: string}} action
   * @returns {Promise<{rev: number}>} as client.dispatch
   */
  dispatch(action) {
    return this.#target.dispatch(action);
  }

  /** Stops mirroring (the subscription is closed). */
  close() {
    clearTimeout(this.#grace);
    this.#detach();
    this.#subscription.close();
  }

  #enqueue(id, action) {
    this.#pending.push({ id, action, time: new Date().toISOString(), inDoubt: false });
    this.#rebase();
    this.#publish();
  }

  #doubt(ids) {
    for (const entry of this.#pending) if (ids.has(entry.id)) entry.inDoubt = true;
    this.#rebase();
  }

  #settle(id) {
    const index = this.#pending.findIndex((entry) => entry.id === id);
    if (index < 0) return;
    this.#pending.splice(index, 1);
    this.#rebase();
  }

  #rebase() {
    if (this.#confirmed === undefined) return;
    let state = this.#confirmed;
    let accepted = 0;
    const welcome = this.client.welcome;
    const session = { id: welcome?.session ?? "", name: this.client.name || (welcome?.session ?? "") };
    for (const entry of this.#pending) {
      if (entry.inDoubt) continue;
      const meta = { revision: this.#rev + accepted + 1, clientId: this.client.clientId, time: entry.time, session };
      try {
        state = this.#reducer(structuredClone(state), entry.action, meta);
        accepted += 1;
      } catch (error) {
        // Predicted to be rejected: left out; the server answers for sure.
      }
    }
    this.#state = state;
  }

  // Called after each message about its store the client handled (and each
  // welcome), with whether dispatches to its store are unanswered.
  #after(message, inFlight) {
    if (message.type === "snapshot" || message.type === "patch") {
      if (inFlight) {
        if (this.#grace === null) this.#grace = setTimeout(() => this.#publish(), 50);
        return;
      }
    }
    this.#publish();
  }

  #publish() {
    clearTimeout(this.#grace);
    this.#grace = null;
    if (this.#state === undefined || jsonEqual(this.#shown, this.#state)) return;
    this.#shown = this.#state;
    if (this.#onChange) this.#onChange(this.#state, { confirmed: this.#confirmed, pending: this.#pending.length });
  }
}
