// statesync.js: the StateSync browser client (docs/PROTOCOL.md, statesync.v1).
// One ES module, no build step, no dependencies. It mirrors subscribed slices
// of the server's state, lets components observe focused paths inside them,
// and dispatches actions. All logic stays on the server.
//
//   import { StateSyncClient } from "/statesync.js";
//   const client = new StateSyncClient("ws://127.0.0.1:8080/sync", { name: "alice" });
//   client.observe("/todos", (todos) => render(todos));
//   client.observe("/todos/0/title", (title) => console.log(title)); // a slice below /todos
//   await client.dispatch({ type: "addTodo", title: "Milk" });       // { rev } or throws StateSyncError

// MARK: JSON Pointer (RFC 6901)

/** The reference tokens of a JSON Pointer; throws on a malformed one. */
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

/** A JSON Pointer from reference tokens. */
export function formatPointer(tokens) {
  return tokens.map((t) => "/" + String(t).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}

/** The tokens of `pointer` below `prefix`, or null when `prefix` does not contain it. */
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

/** The value at `tokens` in `doc`, or undefined when nothing is there. */
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

/** Deep equality of JSON values (object key order does not matter). */
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
 */
export function applyPatch(doc, ops) {
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
  constructor(code, message) {
    super(`${code}: ${message}`);
    this.name = "StateSyncError";
    this.code = code;
    this.detail = message;
  }
}

/** Why the client stopped for good: the server refused this session (bad token, no hello). */
const fatalCodes = new Set(["unauthorized", "hello_required"]);

function randomId() {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
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
  /**
   * @param {string|string[]} url ws://HOST:PORT/sync, or several (an array,
   *   or one string separated by commas): tried in turn; `client.url` is the
   *   one in use.
   * @param {object} [options] token, name, clientId (default: random, kept
   *   across reconnects), backoff { initialMs: 250, maxMs: 10000 } (double
   *   per attempt, then a random 50–100% of it), WebSocket (a constructor,
   *   default the global one), autoConnect (default true).
   */
  constructor(url, options = {}) {
    this.urls = (Array.isArray(url) ? url : String(url).split(","))
      .map((each) => String(each).trim()).filter((each) => each !== "");
    if (this.urls.length === 0) throw new TypeError("StateSyncClient needs at least one URL");
    this._urlIndex = 0;
    this.token = options.token;
    this.name = options.name;
    this.clientId = options.clientId ?? `c-${randomId()}`;
    this.backoff = { initialMs: 250, maxMs: 10_000, ...(options.backoff ?? {}) };
    this.WebSocket = options.WebSocket ?? globalThis.WebSocket;
    this.connection = "closed";
    this.welcome = null;       // the last welcome: { session, epoch, rev, role, server }
    this.rev = null;           // the newest revision seen
    this.lastError = null;     // the last StateSyncError the server sent without an id
    this._socket = null;
    this._attempt = 0;
    this._timer = null;
    this._stopped = false;
    this._counter = 0;
    // Action ids are "<prefix>-a<n>": the server de-duplicates on (clientId, id),
    // so a new instance given a saved clientId must not reuse an earlier
    // instance's ids (it would get that action's remembered outcome, and its
    // own action would never be applied). 12 random hex digits per instance.
    this.actionIdPrefix = randomId().slice(0, 12);
    this._subscriptions = new Map(); // id → subscription
    this._pending = new Map();       // request id → { message, resolve, reject }
    this._listeners = new Set();
    this._optimistic = new Set();    // OptimisticMirror instances told of dispatches, patches and answers
    this._everSent = new Set();      // ids of unanswered dispatches sent on some connection (maybe applied)
    this._opened = null;
    if (options.autoConnect !== false) this.connect();
  }

  /** Connects (again) and resolves with the `welcome` of the next session. */
  connect() {
    this._stopped = false;
    if (!this._socket) this._open();
    return this.ready();
  }

  /** Resolves with the current or next `welcome`. */
  ready() {
    if (this.connection === "open") return Promise.resolve(this.welcome);
    if (!this._opened) {
      let resolve, reject;
      const promise = new Promise((res, rej) => { resolve = res; reject = rej; });
      this._opened = { promise, resolve, reject };
    }
    return this._opened.promise;
  }

  /** Closes for good: no reconnect; pending requests fail with "closed". */
  close() {
    this._stopped = true;
    clearTimeout(this._timer);
    if (this._socket) this._socket.close(1000);
    this._socket = null;
    this._fail(new StateSyncError("closed", "the client was closed"));
    this._setConnection("closed");
  }

  /** Calls `callback(state)` on every connection-state change; returns an unsubscribe function. */
  onConnection(callback) {
    this._listeners.add(callback);
    callback(this.connection);
    return () => this._listeners.delete(callback);
  }

  /**
   * Opens a subscription at `path` (JSON Pointer, "" = whole state) and calls
   * `callback(value, rev)` with its snapshot and after each patch. Returns
   * { path, value, rev, close() }; `onError(error)` gets invalid_path/forbidden.
   */
  subscribe(path, callback, onError) {
    parsePointer(path);
    const id = `s${++this._counter}`;
    const subscription = {
      id, path, value: undefined, rev: null, callbacks: new Set(callback ? [callback] : []), onError,
      observers: new Set(),
      close: () => this._unsubscribe(subscription),
    };
    this._subscriptions.set(id, subscription);
    this._sendSubscribe(subscription, false);
    return subscription;
  }

  /**
   * Observes the value at `path`, calling `callback(value, rev)` with the
   * current value and then only when it changes. The value is read from the
   * mirror of an open subscription containing `path` (so `/todos/0/title`
   * rides on a subscription to `/todos`); without one, a subscription at
   * `path` is opened and closed with its last observer. Returns a function
   * that stops observing. `onError(error)` gets the server's refusal of a
   * subscription it opened (forbidden, invalid_path).
   */
  observe(path, callback, onError) {
    const tokens = parsePointer(path);
    let owner = null;
    for (const subscription of this._subscriptions.values()) {
      const relative = relativeTokens(subscription.path, path);
      if (relative && (!owner || parsePointer(owner.path).length < parsePointer(subscription.path).length)) {
        owner = subscription;
      }
    }
    const ownsSubscription = !owner;
    if (!owner) owner = this.subscribe(path, undefined, onError);
    const observer = { relative: tokens.slice(parsePointer(owner.path).length), callback, last: undefined, seen: false };
    owner.observers.add(observer);
    if (owner.rev !== null) this._notifyObserver(owner, observer);
    return () => {
      owner.observers.delete(observer);
      if (ownsSubscription && owner.observers.size === 0 && owner.callbacks.size === 0) owner.close();
    };
  }

  /** The value at `path` now, from the mirror of a subscription containing it (undefined when none). */
  peek(path) {
    for (const subscription of this._subscriptions.values()) {
      const relative = relativeTokens(subscription.path, path);
      if (relative && subscription.rev !== null) return valueAt(subscription.value, relative) ?? null;
    }
    return undefined;
  }

  /** One-shot read: resolves with { rev, value }. */
  get(path) {
    parsePointer(path);
    return this._request({ type: "get", id: `g${++this._counter}`, path });
  }

  /**
   * Sends an action ({ type, ...fields }); resolves with { rev } once the
   * server acknowledged it (durable), rejects with a StateSyncError carrying
   * the server's `code` and message (`not_found`, `invalid_action`, …).
   * Made while disconnected, it is sent on reconnect. Its id is
   * "<actionIdPrefix>-a<n>", unique across instances that share a clientId.
   */
  dispatch(action) {
    if (action === null || typeof action !== "object" || typeof action.type !== "string") {
      return Promise.reject(new StateSyncError("invalid_action", "an action is an object with a string \"type\""));
    }
    const message = { type: "dispatch", id: `${this.actionIdPrefix}-a${++this._counter}`, action };
    for (const mirror of this._optimistic) mirror._enqueue(message.id, action);
    return this._request(message);
  }

  /**
   * An optimistic mirror of the whole state (see OptimisticMirror): this
   * client's dispatches show at once, predicted with `reducer(state, action,
   * meta)` (the app's own reducer, ported to JS: returns the new state,
   * throws to reject), and are rebased on the server's patches until answered.
   * `onChange(state, view)` gets each new predicted state.
   */
  optimistic(reducer, onChange) {
    const mirror = new OptimisticMirror(this, reducer, onChange);
    this._optimistic.add(mirror);
    return mirror;
  }

  // MARK: Internals

  /** The URL of the node in use, or being tried. */
  get url() {
    return this.urls[this._urlIndex];
  }

  _setConnection(state) {
    if (this.connection === state) return;
    this.connection = state;
    for (const listener of this._listeners) listener(state);
  }

  _open() {
    this._setConnection(this._attempt === 0 && !this.welcome ? "connecting" : "reconnecting");
    let socket;
    try {
      socket = new this.WebSocket(this.url, ["statesync.v1"]);
    } catch (error) {
      this._scheduleReconnect();
      return;
    }
    this._socket = socket;
    socket.onopen = () => {
      const hello = { type: "hello", clientId: this.clientId };
      if (this.token) hello.token = this.token;
      if (this.name) hello.name = this.name;
      socket.send(JSON.stringify(hello));
    };
    socket.onmessage = (event) => {
      if (socket !== this._socket) return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      this._receive(message);
    };
    socket.onclose = () => {
      if (socket !== this._socket) return;
      this._socket = null;
      if (this._stopped) return;
      this._scheduleReconnect();
    };
    socket.onerror = () => {};
  }

  _scheduleReconnect() {
    if (this._stopped) return;
    this._setConnection("reconnecting");
    this._urlIndex = (this._urlIndex + 1) % this.urls.length;
    const round = Math.floor(this._attempt / this.urls.length);
    const ceiling = Math.min(this.backoff.maxMs, this.backoff.initialMs * 2 ** round);
    const delay = ceiling * (0.5 + Math.random() * 0.5);
    this._attempt += 1;
    clearTimeout(this._timer);
    this._timer = setTimeout(() => { if (!this._stopped && !this._socket) this._open(); }, delay);
  }

  _send(message) {
    if (!this._socket || this.connection !== "open") return false;
    this._socket.send(JSON.stringify(message));
    return true;
  }

  _request(message) {
    return new Promise((resolve, reject) => {
      this._pending.set(message.id, { message, resolve, reject });
      if (this._send(message) && message.type === "dispatch") this._everSent.add(message.id);
    });
  }

  _answered(id) {
    this._everSent.delete(id);
    for (const mirror of this._optimistic) mirror._settle(id);
  }

  _fail(error) {
    for (const pending of this._pending.values()) pending.reject(error);
    this._pending.clear();
    if (this._opened) {
      this._opened.reject(error);
      this._opened = null;
    }
  }

  _sendSubscribe(subscription, resume) {
    const message = { type: "subscribe", id: subscription.id, path: subscription.path };
    if (resume && subscription.rev !== null) message.since = subscription.rev;
    this._send(message);
  }

  _unsubscribe(subscription) {
    if (!this._subscriptions.delete(subscription.id)) return;
    this._send({ type: "unsubscribe", id: subscription.id });
  }

  _seen(rev) {
    if (typeof rev === "number" && (this.rev === null || rev > this.rev)) this.rev = rev;
  }

  _receive(message) {
    this._handle(message);
    for (const mirror of this._optimistic) mirror._after(message, this._pending);
  }

  _handle(message) {
    switch (message.type) {
      case "welcome": return this._welcomed(message);
      case "snapshot": return this._snapshot(message);
      case "patch": return this._patch(message);
      case "value":
      case "ack": {
        this._seen(message.rev);
        const pending = this._pending.get(message.id);
        if (!pending) return;
        this._pending.delete(message.id);
        this._answered(message.id);
        pending.resolve(message.type === "ack" ? { rev: message.rev } : { rev: message.rev, value: message.value });
        return;
      }
      case "reject": {
        const pending = this._pending.get(message.id);
        if (!pending) return;
        this._pending.delete(message.id);
        this._answered(message.id);
        pending.reject(new StateSyncError(message.code, message.message));
        return;
      }
      case "error": return this._error(message);
      default: return; // unsubscribed, and types added later
    }
  }

  _welcomed(message) {
    const previous = this.welcome;
    this.welcome = message;
    this._attempt = 0;
    this._seen(message.rev);
    // Revisions compare only within one epoch: a new one means a new history.
    const sameHistory = previous !== null && previous.epoch === message.epoch;
    if (!sameHistory && previous !== null) this.rev = message.rev;
    this._setConnection("open");
    for (const subscription of this._subscriptions.values()) {
      if (!sameHistory) subscription.rev = null;
      this._sendSubscribe(subscription, sameHistory);
    }
    // Dispatches sent before the drop may have been applied: not predicted until answered.
    if (this._everSent.size > 0) for (const mirror of this._optimistic) mirror._doubt(this._everSent);
    for (const pending of this._pending.values()) {
      if (this._send(pending.message) && pending.message.type === "dispatch") this._everSent.add(pending.message.id);
    }
    if (this._opened) {
      this._opened.resolve(message);
      this._opened = null;
    }
  }

  _snapshot(message) {
    const subscription = this._subscriptions.get(message.id);
    this._seen(message.rev);
    if (!subscription) return;
    subscription.value = message.value;
    subscription.rev = message.rev;
    this._changed(subscription);
  }

  _patch(message) {
    const subscription = this._subscriptions.get(message.id);
    this._seen(message.rev);
    if (!subscription) return;
    if (subscription.rev !== message.base) {
      // A gap: something was missed. Start this subscription over.
      subscription.rev = null;
      this._sendSubscribe(subscription, false);
      return;
    }
    try {
      subscription.value = applyPatch(subscription.value, message.ops);
    } catch (error) {
      subscription.rev = null;
      this._sendSubscribe(subscription, false);
      return;
    }
    subscription.rev = message.rev;
    if (message.ops.length > 0) this._changed(subscription);
  }

  _error(message) {
    const error = new StateSyncError(message.code, message.message);
    const subscription = message.id !== undefined ? this._subscriptions.get(message.id) : undefined;
    if (subscription) {
      this._subscriptions.delete(message.id);
      if (subscription.onError) subscription.onError(error);
      return;
    }
    const pending = message.id !== undefined ? this._pending.get(message.id) : undefined;
    if (pending) {
      this._pending.delete(message.id);
      this._answered(message.id);
      pending.reject(error);
      return;
    }
    this.lastError = error;
    if (fatalCodes.has(message.code)) {
      this._stopped = true;
      this._fail(error);
      this._setConnection("closed");
    }
  }

  _changed(subscription) {
    for (const callback of subscription.callbacks) callback(subscription.value, subscription.rev);
    for (const observer of subscription.observers) this._notifyObserver(subscription, observer);
  }

  _notifyObserver(subscription, observer) {
    const found = valueAt(subscription.value, observer.relative);
    const value = found === undefined ? null : found;
    if (observer.seen && (observer.last === value || jsonEqual(observer.last, value))) return;
    observer.seen = true;
    observer.last = value;
    observer.callback(value, subscription.rev);
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
  constructor(client, reducer, onChange) {
    this.client = client;
    this.reducer = reducer;
    this.onChange = onChange;
    this.confirmed = undefined;  // the server's state (undefined until the snapshot)
    this.rev = null;             // its revision
    this.pending = [];           // [{ id, action, time }] in the order dispatched
    this.state = undefined;      // the prediction
    this._grace = null;
    this._shown = undefined;
    this._subscription = client.subscribe("", (value, rev) => {
      this.confirmed = value;
      this.rev = rev;
      this._rebase();
    });
  }

  /** Dispatches `action` through the client: shown at once; resolves { rev } on the ack. */
  dispatch(action) {
    return this.client.dispatch(action);
  }

  /** Stops mirroring (the subscription is closed). */
  close() {
    clearTimeout(this._grace);
    this.client._optimistic.delete(this);
    this._subscription.close();
  }

  _enqueue(id, action) {
    this.pending.push({ id, action, time: new Date().toISOString(), inDoubt: false });
    this._rebase();
    this._publish();
  }

  _doubt(ids) {
    for (const entry of this.pending) if (ids.has(entry.id)) entry.inDoubt = true;
    this._rebase();
  }

  _settle(id) {
    const index = this.pending.findIndex((entry) => entry.id === id);
    if (index < 0) return;
    this.pending.splice(index, 1);
    this._rebase();
  }

  _rebase() {
    if (this.confirmed === undefined) return;
    let state = this.confirmed;
    let accepted = 0;
    const welcome = this.client.welcome;
    const session = { id: welcome?.session ?? "", name: this.client.name || (welcome?.session ?? "") };
    for (const entry of this.pending) {
      if (entry.inDoubt) continue;
      const meta = { revision: this.rev + accepted + 1, clientId: this.client.clientId, time: entry.time, session };
      try {
        state = this.reducer(structuredClone(state), entry.action, meta);
        accepted += 1;
      } catch (error) {
        // Predicted to be rejected: left out; the server answers for sure.
      }
    }
    this.state = state;
  }

  /** Called after each message the client handled, with its unanswered requests. */
  _after(message, unanswered) {
    if (message.type === "snapshot" || message.type === "patch") {
      const inFlight = [...unanswered.values()].some((request) => request.message.type === "dispatch");
      if (inFlight) {
        if (this._grace === null) this._grace = setTimeout(() => this._publish(), 50);
        return;
      }
    }
    this._publish();
  }

  _publish() {
    clearTimeout(this._grace);
    this._grace = null;
    if (this.state === undefined || jsonEqual(this._shown, this.state)) return;
    this._shown = this.state;
    if (this.onChange) this.onChange(this.state, { confirmed: this.confirmed, pending: this.pending.length });
  }
}
