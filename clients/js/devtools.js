// The devtools page (served at /devtools): a live action log with each
// action's JSON Patch, the state tree, time travel (states rebuilt on the
// server from snapshot + journal, read-only) and the connected sessions.
// Live data comes over the protocol (a subscription to the whole state);
// history and sessions come from the read-only /devtools/api endpoints
// (docs/PROTOCOL.md, "Devtools"). With authentication on, both need an
// admin token: open /devtools#token=TOKEN or type it in the header.
// Everything shown is one store's: /devtools?store=NAME (default main),
// chosen with the store picker in the header.
import { StateSyncClient } from "/statesync.js";

const $ = (id) => document.getElementById(id);
const element = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
};

const tokenKey = "statesync-devtools-token";
let token = new URLSearchParams(location.hash.slice(1)).get("token") ?? sessionStorage.getItem(tokenKey) ?? undefined;
// Kept for this tab: picking another store reloads the page.
if (token) sessionStorage.setItem(tokenKey, token);

const storeName = new URLSearchParams(location.search).get("store") ?? "main";

// `path` of the devtools API for the store shown.
const inStore = (path) => storeName === "main" ? path : `${path}${path.includes("?") ? "&" : "?"}store=${encodeURIComponent(storeName)}`;

const model = {
  entries: new Map(),   // rev → journal entry (accepted actions and server events)
  rejections: [],       // the server's in-memory window of rejected dispatches
  lastRev: 0,           // highest journal rev fetched
  lastRejection: 0,     // highest rejection seq fetched
  latest: 0,            // the journal's latest rev
  oldest: null,         // its oldest kept rev
  snapshots: [],
  selected: null,       // { rev } or { seq }
  travel: null,         // null = live, else the rev shown
  live: null,           // the live state (subscription to "")
};

function problem(message) {
  $("problem").textContent = message ?? "";
  $("problem").style.display = message ? "block" : "none";
}

async function api(path) {
  const response = await fetch(path, { headers: token ? { Authorization: `Bearer ${token}` } : {}, cache: "no-store" });
  const body = await response.json();
  if (!response.ok) {
    const error = new Error(body.error?.message ?? `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return body;
}

function askForToken(message) {
  $("auth").style.display = "flex";
  problem(message);
}

$("auth").addEventListener("submit", (event) => {
  event.preventDefault();
  token = $("token-input").value.trim() || undefined;
  if (token) sessionStorage.setItem(tokenKey, token);
  location.hash = "";
  location.reload();
});

// MARK: Live connection

const scheme = location.protocol === "https:" ? "wss" : "ws";
const client = new StateSyncClient(`${scheme}://${location.host}/sync`, { token, name: "devtools" });
window.statesync = client;

client.onConnection((state) => {
  $("connection").textContent = state;
  $("connection").className = `pill ${state}`;
  if (state === "closed" && client.lastError) askForToken(`The server refused the session: ${client.lastError.message}`);
  // A token with no role in main (a JWT for other stores) is judged by the
  // devtools routes, store by store; a reader in main is refused here at once.
  if (state === "open" && client.welcome.role === "reader") {
    askForToken(`This token's role is ${client.welcome.role}; devtools need an admin token.`);
  }
});

// The live state of the store shown; subscribed once the server says it
// holds the store (a subscription would create a missing one).
function subscribeLive() {
  const live = storeName === "main" ? client : client.store(storeName);
  live.subscribe("", (state, rev) => {
    model.live = state;
    $("rev").textContent = rev;
    if (model.travel === null) renderState();
    refresh();
  }, (error) => askForToken(`The server refused the state subscription: ${error.message}`));
}

// MARK: Store picker

// Lists the stores the caller may read (every page) into the picker;
// resolves to whether the store shown is one of them.
async function loadStores() {
  const names = [];
  let after = null;
  do {
    const page = await api(after === null ? "/devtools/api/stores" : `/devtools/api/stores?after=${encodeURIComponent(after)}`);
    names.push(...page.stores.map((store) => store.name));
    after = page.next ?? null;
  } while (after !== null);
  $("store-picker").replaceChildren(...names.map((name) => element("option", { value: name, textContent: name, selected: name === storeName })));
  return names.includes(storeName);
}

$("store-picker").addEventListener("change", (event) => {
  const search = new URLSearchParams(location.search);
  search.set("store", event.target.value);
  location.search = search.toString();
});

// MARK: Fetching history

let refreshing = null;
let again = false;

async function refresh() {
  if (refreshing) {
    again = true;
    return refreshing;
  }
  refreshing = (async () => {
    do {
      again = false;
      try {
        let page;
        do {
          // The first read gets the newest page; later ones continue after it.
          page = await api(inStore(model.lastRev > 0 ? `/devtools/api/journal?from=${model.lastRev + 1}` : "/devtools/api/journal"));
          for (const entry of page.entries) {
            model.entries.set(entry.rev, entry);
            model.lastRev = Math.max(model.lastRev, entry.rev);
          }
          $("epoch").textContent = page.epoch.slice(0, 10) + "…";   // the store's own epoch
          model.latest = page.latest;
          model.oldest = page.oldest;
          model.snapshots = page.snapshots;
        } while (page.entries.length > 0 && model.lastRev < page.latest);
        const rejected = await api(inStore(`/devtools/api/rejections?after=${model.lastRejection}`));
        for (const rejection of rejected.rejections) {
          model.rejections.push(rejection);
          model.lastRejection = Math.max(model.lastRejection, rejection.seq);
        }
        problem(null);
      } catch (error) {
        if (error.status === 401 || error.status === 403) askForToken(error.message);
        else problem(`Reading the journal failed: ${error.message}`);
      }
    } while (again);
    renderLog();
    renderTravel();
    refreshing = null;
  })();
  return refreshing;
}

async function refreshSessions() {
  try {
    const { sessions } = await api(inStore("/devtools/api/sessions"));
    $("sessions").replaceChildren(...sessions.map((session) => element("tr", {},
      element("td", { className: "mono", textContent: session.id }),
      element("td", { textContent: session.name }),
      element("td", { className: "mono", textContent: session.clientId ?? "–" }),
      element("td", { textContent: session.role }),
      element("td", { className: "mono", textContent: session.subscriptions.map((s) => `${s.id} ${s.path === "" ? '""' : s.path}`).join(", ") || "–" }),
      element("td", { className: "num", textContent: String(session.deferredAnswers) }),
      element("td", { className: session.slow ? "bad" : "", textContent: session.slow ? "slow" : "no" }))));
    $("sessions-note").textContent = `${sessions.length} connected · updated ${new Date().toLocaleTimeString()}`;
  } catch (error) {
    if (error.status === 401 || error.status === 403) askForToken(error.message);
  }
}

// MARK: Action log

function describe(entry) {
  if (entry.command === "dispatch") return JSON.stringify(entry.action);
  const who = entry.session ? ` ${entry.session.name} (${entry.session.id})` : "";
  return `${entry.command}${who}`;
}

// The client id when the client gave one, else who sent it (session name and id, or "server").
function clientCell(clientId, fallback) {
  return element("td", { className: "mono client", textContent: clientId ?? fallback, title: clientId ?? fallback });
}

function renderLog() {
  const rows = [];
  for (const entry of model.entries.values()) {
    rows.push({ key: `r${entry.rev}`, time: entry.time, order: entry.rev * 2, entry });
  }
  for (const rejection of model.rejections) {
    rows.push({ key: `x${rejection.seq}`, time: rejection.time, order: rejection.rev * 2 + 1, rejection });
  }
  rows.sort((a, b) => b.order - a.order || (b.time < a.time ? -1 : 1));
  $("log").replaceChildren(...rows.slice(0, 500).map((row) => {
    const selected = model.selected === row.key;
    let cells;
    if (row.entry) {
      const entry = row.entry;
      const system = entry.command !== "dispatch";
      cells = [
        element("td", { className: "num", textContent: entry.rev }),
        element("td", { className: "mono", textContent: entry.time.slice(11, 19), title: entry.time }),
        clientCell(entry.clientId, entry.session ? `${entry.session.name} (${entry.session.id})` : "server"),
        element("td", { className: system ? "mono action sys" : "mono action", textContent: describe(entry), title: describe(entry) }),
        element("td", { className: system ? "sys" : "ok", textContent: system ? "server" : "accepted" }),
      ];
    } else {
      const rejection = row.rejection;
      cells = [
        element("td", { className: "num sys", textContent: `(${rejection.rev})` }),
        element("td", { className: "mono", textContent: rejection.time.slice(11, 19), title: rejection.time }),
        clientCell(rejection.clientId, rejection.session),
        element("td", { className: "mono action", textContent: JSON.stringify(rejection.action), title: JSON.stringify(rejection.action) }),
        element("td", { className: "bad", textContent: `rejected ${rejection.code}`, title: rejection.message }),
      ];
    }
    const tr = element("tr", { className: selected ? "selected" : "" }, ...cells);
    tr.dataset.key = row.key;
    tr.addEventListener("click", () => select(row));
    return tr;
  }));
}

function select(row) {
  model.selected = row.key;
  if (row.entry) {
    const entry = row.entry;
    $("diff-title").replaceChildren(`rev ${entry.rev}: ${entry.command === "dispatch" ? entry.action.type : entry.command} · `,
      Object.assign(element("a", { href: "#", textContent: `state at rev ${entry.rev}` }), {
        onclick: (event) => { event.preventDefault(); travelTo(entry.rev); },
      }));
    $("diff").textContent = entry.patch ? JSON.stringify(entry.patch, null, 2) : "(no patch: the state before this revision is no longer in the journal)";
  } else {
    const rejection = row.rejection;
    $("diff-title").textContent = `rejected ${rejection.actionId}: no change`;
    $("diff").textContent = `[]\n\n${rejection.code}: ${rejection.message}\naction: ${JSON.stringify(rejection.action, null, 2)}`;
  }
  renderLog();
}

// MARK: State and time travel

function tree(value, key, depth) {
  const label = key === undefined ? [] : [element("span", { className: "key", textContent: key }), ": "];
  if (value !== null && typeof value === "object") {
    const isArray = Array.isArray(value);
    const keys = isArray ? value.map((_, i) => i) : Object.keys(value);
    const details = element("details", { open: depth < 3 },
      element("summary", {}, ...label, isArray ? `[${keys.length}]` : `{${keys.length}}`));
    for (const k of keys) details.append(tree(value[k], String(k), depth + 1));
    return details;
  }
  const className = typeof value === "string" ? "str" : typeof value === "number" ? "numv" : "lit";
  return element("div", { className: "leaf" }, ...label, element("span", { className, textContent: JSON.stringify(value) }));
}

function renderState(state = model.live) {
  $("state").replaceChildren(tree(state, undefined, 0));
}

function renderTravel() {
  const max = Math.max(model.latest, model.lastRev);
  $("travel-range").max = String(max);
  $("travel-rev").max = String(max);
  if (model.travel === null) {
    $("travel-range").value = String(max);
    $("travel-rev").value = String(max);
  }
  const kept = model.oldest === null ? "none" : model.oldest;
  $("state-note").textContent = `snapshots at ${model.snapshots.join(", ") || "none"} · journal from ${kept}`;
}

async function travelTo(rev) {
  const max = Math.max(model.latest, model.lastRev);
  rev = Math.max(0, Math.min(rev, max));
  model.travel = rev;
  $("travel-range").value = String(rev);
  $("travel-rev").value = String(rev);
  try {
    const result = await api(inStore(`/devtools/api/state?rev=${rev}`));
    if (model.travel !== rev) return;
    $("state-banner").className = "past";
    $("state-banner").textContent =
      `read-only: the state at rev ${result.rev} (latest ${result.latest}), rebuilt on the server from ${result.snapshot === 0 ? "the initial state" : `the snapshot at rev ${result.snapshot}`} + ${result.rev - result.snapshot} journaled actions`;
    renderState(result.state);
  } catch (error) {
    $("state-banner").className = "past";
    $("state-banner").textContent = `rev ${rev}: ${error.message}`;
    $("state").replaceChildren();
  }
}

function goLive() {
  model.travel = null;
  $("state-banner").className = "live";
  $("state-banner").textContent = "live: the state as it is now";
  renderState();
  renderTravel();
}

$("back").addEventListener("click", () => travelTo((model.travel ?? Math.max(model.latest, model.lastRev)) - 1));
$("forward").addEventListener("click", () => {
  if (model.travel === null) return;
  const next = model.travel + 1;
  if (next > Math.max(model.latest, model.lastRev)) goLive(); else travelTo(next);
});
$("travel-range").addEventListener("change", (event) => travelTo(Number(event.target.value)));
$("go").addEventListener("click", () => travelTo(Number($("travel-rev").value)));
$("live").addEventListener("click", goLive);

async function start() {
  try {
    if (!(await loadStores())) {
      problem(`The server holds no store "${storeName}" that this token may read.`);
      return;
    }
  } catch (error) {
    if (error.status === 401 || error.status === 403) askForToken(error.message);
    else problem(`Listing the stores failed: ${error.message}`);
    return;
  }
  subscribeLive();
  refresh();
  refreshSessions();
  setInterval(() => { refresh(); refreshSessions(); }, 2000);
}

start();
