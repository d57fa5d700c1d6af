"""docs/openapi.yaml against a real server.

- The document is valid OpenAPI 3.1.
- Schemathesis generates requests for every operation (the document's
  examples, boundary values, random data) and checks each answer: no 5xx,
  a documented status code, content type, headers and body schema. Once on
  an open server, once on a server with tokens, with no token, an unknown
  one, or one of each role.
- Targeted requests reach each status code that can be reached from outside
  (401, 403, 408, 409, 413, 429, 431, 503 …) and check the answer the same
  way, so that a status the document left out fails here. The store routes
  (/api/stores/…) too: a new store, an existing one, a bad name, a reader
  creating one, the bounds on stores, a store that cannot be opened, a
  listing in pages, deleting a store (idle, closed, `main`, missing, with a
  session in it, one whose files cannot be removed).
- The last test checks the other way round: every status code the document
  lists for an operation was answered by it, so that the document claims
  nothing the server does not do.
"""

from __future__ import annotations

import itertools
import json
import socket
import time

import pytest
import requests
import schemathesis
import yaml
from hypothesis import HealthCheck, settings
from openapi_spec_validator import OpenAPIV31SpecValidator
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from conftest import REPO, TOKENS, Server

SPEC = REPO / "docs" / "openapi.yaml"
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_headers_conformance, response_schema_conformance]

# No cache of failing cases in the repository (.schemathesis/): each run
# starts afresh. A watch never ends by itself: its answer is read until 2
# events came, or WATCH_READ seconds passed without one.
schema = schemathesis.openapi.from_path(
    SPEC, config=schemathesis.Config.from_dict({"cache": {"enabled": False}, "max-stream-events": 2}))

# Generated requests per operation and phase: enough to reach the error
# paths, few enough that the whole file runs in well under a minute.
GENERATED = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                     suppress_health_check=list(HealthCheck))

WATCH_READ = 0.5

# Every operation as (method, path).
OPERATIONS = [(method.upper(), path) for path, item in schema.raw_schema["paths"].items() for method in item]

# (method, path, status) of every answer checked here.
ANSWERED: set[tuple[str, str, int]] = set()

# Documented statuses no request from outside can bring about: a journal that
# failed for good. 408 and 431 are
# answered before routing and checked once (test_request_timeout,
# test_head_too_large).
UNREACHABLE = {("POST", "/api/dispatch", 500), ("POST", "/api/stores/{store}/dispatch", 500)}
BEFORE_ROUTING = {408, 431}


def call(case, base: str, checks=CHECKS, **kwargs):
    """Sends `case` to `base` and checks the answer against the document."""
    timeout = WATCH_READ if case.operation.path.endswith("/watch") else 10
    response = case.call(base_url=base, timeout=timeout, **kwargs)
    case.validate_response(response, checks=checks)
    ANSWERED.add((case.operation.method.upper(), case.operation.path, response.status_code))
    return response


def request(server, method: str, path: str, expected: int | None, headers=None, data=None, **case_fields):
    """One targeted request, checked against the document; its status must be
    `expected` (any when `None`). `data` replaces the body with these bytes."""
    if method == "POST" and "body" not in case_fields:
        case_fields.update(body={"type": "clearCompleted"}, media_type="application/json")
    if "{store}" in path:
        case_fields.setdefault("path_parameters", {"store": "team-1"})
    case = schema[path][method].Case(**case_fields)
    # A 5xx is expected here: only what the document says about it is checked.
    server_error = expected is None or expected >= 500
    checks = [check for check in CHECKS if not server_error or check is not not_a_server_error]
    response = call(case, server.base, checks=checks, headers=headers, **({"data": data} if data else {}))
    assert expected is None or response.status_code == expected, \
        f"{method} {path}: {response.status_code} {response.text[:300]}"
    return response


def header(response, name: str) -> str:
    """A header's (first) value; schemathesis keeps them as lists by lowercased name."""
    return response.headers[name.lower()][0]


def raw_answer(port: int, sent: bytes) -> str:
    """What the server answers to `sent` on a fresh connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(sent)
        return connection.recv(65536).decode()


def test_document_is_valid_openapi_3_1():
    document = yaml.safe_load(SPEC.read_text())
    assert document["openapi"].startswith("3.1.")
    OpenAPIV31SpecValidator(document).validate()


@schema.parametrize()
@GENERATED
def test_generated_requests(case, open_server):
    call(case, open_server.base)


# The Authorization header generated requests carry in turn: none, an unknown
# token, not a Bearer one, each role's token.
ROTATION = itertools.cycle([None, "Bearer unknown-token", "Basic d2hvOm1l", *(f"Bearer {t}" for t in TOKENS.values())])


@schema.parametrize()
@GENERATED
def test_generated_requests_with_tokens(case, token_server):
    authorization = next(ROTATION)
    call(case, token_server.base, headers={"Authorization": authorization} if authorization else None)


# Dispatch.

def dispatch(server, body, expected: int, headers=None):
    return request(server, "POST", "/api/dispatch", expected, headers=headers, body=body, media_type="application/json")


def test_dispatch_answers(open_server):
    first = dispatch(open_server, {"type": "addTodo", "title": "Milk"}, 200).json()["rev"]
    second = dispatch(open_server, {"action": {"type": "postMessage", "text": "deployed"}, "clientId": "ci", "id": "build-1",
                                    "name": "ci"}, 200).json()["rev"]
    assert second > first
    # The same pair answers its first outcome again, applied once.
    again = dispatch(open_server, {"action": {"type": "postMessage", "text": "deployed"}, "clientId": "ci", "id": "build-1"}, 200)
    assert again.json()["rev"] == second
    keyed = dispatch(open_server, {"type": "increment", "counter": "paid"}, 200, headers={"Idempotency-Key": "k-1"})
    assert dispatch(open_server, {"type": "increment", "counter": "paid"}, 200,
                    headers={"Idempotency-Key": "k-1"}).json() == keyed.json()

    assert dispatch(open_server, {"type": "toggleTodo", "id": "nope"}, 409).json()["code"] == "not_found"
    assert dispatch(open_server, {"type": "bogus"}, 422).json()["code"] == "invalid_action"
    assert dispatch(open_server, [1], 400).json()["code"] == "bad_json"
    assert dispatch(open_server, {"action": 3}, 400).json()["code"] == "bad_request"
    assert dispatch(open_server, {"type": "postMessage", "text": "x"}, 400,
                    headers={"Idempotency-Key": "k" * 129}).json()["code"] == "bad_request"
    # --restrict-action resetCounter=admin; only the server may send `rolled`.
    assert dispatch(open_server, {"type": "resetCounter", "counter": "paid"}, 403).json()["code"] == "forbidden"
    assert dispatch(open_server, {"type": "rolled", "by": "x", "sides": 6, "result": 1}, 403).json()["code"] == "forbidden"


def test_dispatch_body_that_is_not_json(open_server):
    case = schema["/api/dispatch"]["POST"].Case(body="not json", media_type="application/json")
    response = call(case, open_server.base)
    assert response.status_code == 400 and response.json()["code"] == "bad_json"


# State.

def test_state_answers(open_server):
    todos = request(open_server, "GET", "/api/state", 200, query={"path": "/todos"})
    etag = header(todos, "ETag")
    assert etag == f'"{todos.json()["rev"]}"'
    assert request(open_server, "GET", "/api/state", 200, query={"path": "/nothing/here"}).json()["value"] is None
    todos_path = {"path": "/todos"}
    assert request(open_server, "GET", "/api/state", 304, query=todos_path, headers={"If-None-Match": etag}).content == b""
    request(open_server, "GET", "/api/state", 304, query=todos_path, headers={"If-None-Match": "*"})
    request(open_server, "HEAD", "/api/state", 200, query=todos_path)
    request(open_server, "HEAD", "/api/state", 304, query=todos_path, headers={"If-None-Match": etag})
    assert request(open_server, "GET", "/api/state", 400, query={"path": "todos"}).json()["code"] == "invalid_path"
    request(open_server, "HEAD", "/api/state", 400, query={"path": "todos"})
    request(open_server, "HEAD", "/api/state", 403, query={"path": "/presence"})
    # --restrict-read /presence=admin: the whole state holds /presence.
    assert request(open_server, "GET", "/api/state", 403, query={"path": "/presence"}).json()["code"] == "forbidden"
    request(open_server, "GET", "/api/state", 403)


# Watch.

def events(response) -> list[str]:
    return [line.split(": ", 1)[1] for line in response.text.splitlines() if line.startswith("event: ")]


def test_watch_answers(open_server):
    rev = dispatch(open_server, {"type": "addTodo", "title": "Bread"}, 200).json()["rev"]
    both = request(open_server, "GET", "/api/watch", 200, query={"path": ["/todos", "/counters"]})
    assert header(both, "Content-Type").startswith("text/event-stream")
    assert events(both) == ["snapshot", "snapshot"]
    # Resuming from the revision before the last change: a patch.
    resumed = request(open_server, "GET", "/api/watch", 200, query={"path": ["/todos"]},
                      headers={"Last-Event-ID": str(rev - 1)})
    assert events(resumed) == ["patch"]
    assert request(open_server, "GET", "/api/watch", 400, query={"path": ["todos"]}).json()["code"] == "invalid_path"
    too_many = request(open_server, "GET", "/api/watch", 400, query={"path": [f"/p{i}" for i in range(257)]})
    assert too_many.json()["code"] == "too_many_subscriptions"
    assert request(open_server, "GET", "/api/watch", 403, query={"path": ["/presence/s-1"]}).json()["code"] == "forbidden"


# Health, metrics, and what the server answers before any route.

def test_health_and_metrics(open_server):
    assert request(open_server, "GET", "/health", 200).json()["status"] == "ok"
    request(open_server, "HEAD", "/health", 200)
    assert "statesync_" in request(open_server, "GET", "/metrics", 200).text


def test_origin_and_host_policy(open_server):
    page = {"Origin": "http://elsewhere.example"}
    assert request(open_server, "GET", "/health", 403, headers=page).json()["code"] == "forbidden"
    request(open_server, "HEAD", "/health", 403, headers=page)
    dispatch(open_server, {"type": "clearCompleted"}, 403, headers=page)
    request(open_server, "GET", "/metrics", 403, headers={"Host": "rebinding.example"})


def test_unknown_paths_and_methods(open_server):
    # Described in the document's info (they are not an operation's).
    missing = requests.get(open_server.base + "/api/nothing", timeout=10)
    assert missing.status_code == 404 and missing.headers["Content-Type"].startswith("text/plain")
    refused = requests.put(open_server.base + "/api/state", timeout=10)
    assert refused.status_code == 405 and refused.headers["Allow"] == "GET, HEAD"
    assert requests.post(open_server.base + "/api/watch", timeout=10).headers["Allow"] == "GET"


# Authentication.

def bearer(role: str) -> dict:
    return {"Authorization": f"Bearer {TOKENS[role]}"}


def test_tokens(token_server):
    for headers in (None, {"Authorization": "Bearer unknown-token"}, {"Authorization": "Basic d2hvOm1l"}):
        assert dispatch(token_server, {"type": "clearCompleted"}, 401, headers=headers).json()["code"] == "unauthorized"
        request(token_server, "GET", "/api/state", 401, headers=headers)
        request(token_server, "HEAD", "/api/state", 401, headers=headers)
        request(token_server, "GET", "/api/watch", 401, headers=headers)
        request(token_server, "GET", "/metrics", 401, headers=headers)
    assert dispatch(token_server, {"type": "clearCompleted"}, 403, headers=bearer("reader")).json()["code"] == "forbidden"
    dispatch(token_server, {"type": "clearCompleted"}, 200, headers=bearer("writer"))
    dispatch(token_server, {"type": "resetCounter", "counter": "c"}, 200, headers=bearer("admin"))
    request(token_server, "GET", "/api/state", 200, query={"path": "/todos"}, headers=bearer("reader"))
    request(token_server, "GET", "/api/state", 200, headers=bearer("admin"))
    request(token_server, "GET", "/api/state", 403, query={"path": "/presence"}, headers=bearer("writer"))
    request(token_server, "GET", "/api/state", 200, query={"path": "/presence"}, headers=bearer("admin"))
    request(token_server, "GET", "/api/watch", 200, query={"path": ["/chat"]}, headers=bearer("reader"))
    request(token_server, "GET", "/metrics", 403, headers=bearer("writer"))
    request(token_server, "GET", "/metrics", 200, headers=bearer("admin"))
    request(token_server, "GET", "/health", 200)


# Requests the document's parameters cannot express (a malformed escape, an empty header).

def raw(server, method: str, path: str, url: str, expected: int, headers=None, data=None, **case_fields):
    """`method url` as sent (`url` after the base, unencoded), its answer
    checked against the document's `method path`."""
    response = requests.request(method, server.base + url, headers=headers, data=data, timeout=10)
    if "{store}" in path:
        case_fields.setdefault("path_parameters", {"store": "team-1"})
    case = schema[path][method].Case(**case_fields)
    case.validate_response(response, checks=CHECKS)
    ANSWERED.add((method, path, response.status_code))
    assert response.status_code == expected, f"{method} {url}: {response.status_code} {response.text[:300]}"
    return response


def test_fixed_refusals(open_server):
    # An empty Idempotency-Key would make every such request one pair.
    empty_key = dispatch(open_server, {"type": "postMessage", "text": "x"}, 400, headers={"Idempotency-Key": ""})
    assert empty_key.json()["code"] == "bad_request"
    # A path that is not percent-encoded UTF-8 is refused, not read as absent (the whole state).
    for url in ("/api/state?path=%FF", "/api/state?path=%2", "/api/stores/team-1/state?path=%C3%28"):
        path = "/api/stores/{store}/state" if "stores" in url else "/api/state"
        assert raw(open_server, "GET", path, url, 400).json()["code"] == "invalid_path"
    for path, url in (("/api/watch", "/api/watch?path=/todos&path=%FF"),
                      ("/api/stores/{store}/watch", "/api/stores/team-1/watch?path=%E2%82")):
        assert raw(open_server, "GET", path, url, 400).json()["code"] == "invalid_path"


# Stores.

STORE_ROUTES = {"dispatch": "/api/stores/{store}/dispatch", "state": "/api/stores/{store}/state",
                "watch": "/api/stores/{store}/watch"}


def in_store(server, method: str, route: str, store: str, expected: int, **fields):
    """`method /api/stores/STORE/ROUTE`, checked; `expected` its status."""
    return request(server, method, STORE_ROUTES[route], expected, path_parameters={"store": store}, **fields)


def store_dispatch(server, store: str, body, expected: int, headers=None):
    return in_store(server, "POST", "dispatch", store, expected, headers=headers, body=body, media_type="application/json")


def test_store_routes(open_server):
    # A new store: created by its first request, empty, its own revisions.
    main_rev = dispatch(open_server, {"type": "addTodo", "title": "Main"}, 200).json()["rev"]
    created = in_store(open_server, "GET", "state", "team-new", 200, query={"path": "/todos"})
    assert created.json()["value"] == []
    first = store_dispatch(open_server, "team-new", {"type": "addTodo", "title": "Team milk"}, 200).json()["rev"]
    assert first > created.json()["rev"]
    # An existing store: what it holds, and nothing of main's.
    todos = in_store(open_server, "GET", "state", "team-new", 200, query={"path": "/todos"})
    assert [todo["title"] for todo in todos.json()["value"]] == ["Team milk"]
    etag = header(todos, "ETag")
    assert etag == f'"{todos.json()["rev"]}"' and todos.json()["rev"] >= first
    in_store(open_server, "GET", "state", "team-new", 304, query={"path": "/todos"}, headers={"If-None-Match": etag})
    in_store(open_server, "HEAD", "state", "team-new", 200, query={"path": "/todos"})
    in_store(open_server, "HEAD", "state", "team-new", 304, query={"path": "/todos"}, headers={"If-None-Match": etag})
    main_todos = request(open_server, "GET", "/api/state", 200, query={"path": "/todos"}).json()["value"]
    assert "Team milk" not in [todo["title"] for todo in main_todos]
    # main under its name is /api/…'s store.
    assert in_store(open_server, "GET", "state", "main", 200, query={"path": "/todos"}).json()["rev"] >= main_rev
    # The dispatch answers of /api/dispatch, in a store.
    keyed = store_dispatch(open_server, "team-new", {"type": "increment", "counter": "c"}, 200, headers={"Idempotency-Key": "k"})
    assert store_dispatch(open_server, "team-new", {"type": "increment", "counter": "c"}, 200,
                          headers={"Idempotency-Key": "k"}).json() == keyed.json()
    assert store_dispatch(open_server, "team-new", {"type": "toggleTodo", "id": "nope"}, 409).json()["code"] == "not_found"
    assert store_dispatch(open_server, "team-new", {"type": "bogus"}, 422).json()["code"] == "invalid_action"
    assert store_dispatch(open_server, "team-new", [1], 400).json()["code"] == "bad_json"
    assert store_dispatch(open_server, "team-new", {"action": 3}, 400).json()["code"] == "bad_request"
    assert store_dispatch(open_server, "team-new", {"type": "resetCounter", "counter": "c"}, 403).json()["code"] == "forbidden"
    # Watch a store: its events, its revisions.
    watched = in_store(open_server, "GET", "watch", "team-new", 200, query={"path": ["/todos", "/counters"]})
    assert events(watched) == ["snapshot", "snapshot"]
    resumed = in_store(open_server, "GET", "watch", "team-new", 200, query={"path": ["/todos"]},
                       headers={"Last-Event-ID": "0"})
    assert events(resumed) == ["patch"]
    assert in_store(open_server, "GET", "watch", "team-new", 400, query={"path": ["todos"]}).json()["code"] == "invalid_path"
    too_many = in_store(open_server, "GET", "watch", "team-new", 400, query={"path": [f"/p{i}" for i in range(257)]})
    assert too_many.json()["code"] == "too_many_subscriptions"
    assert in_store(open_server, "GET", "watch", "team-new", 403, query={"path": ["/presence"]}).json()["code"] == "forbidden"
    assert in_store(open_server, "GET", "state", "team-new", 400, query={"path": "todos"}).json()["code"] == "invalid_path"
    in_store(open_server, "HEAD", "state", "team-new", 400, query={"path": "todos"})
    assert in_store(open_server, "GET", "state", "team-new", 403, query={"path": "/presence"}).json()["code"] == "forbidden"
    in_store(open_server, "HEAD", "state", "team-new", 403)
    # Bad names, on every store route (a bad body or path is answered first).
    for name in ("Team", "-team", "a" * 65, "team 1", "team%2Fx", "ü"):
        assert store_dispatch(open_server, name, {"type": "clearCompleted"}, 400).json()["code"] == "invalid_store"
        assert in_store(open_server, "GET", "state", name, 400, query={"path": "/todos"}).json()["code"] == "invalid_store"
        in_store(open_server, "HEAD", "state", name, 400, query={"path": "/todos"})
        assert in_store(open_server, "GET", "watch", name, 400, query={"path": ["/todos"]}).json()["code"] == "invalid_store"
        assert request(open_server, "DELETE", "/api/stores/{store}", 400,
                       path_parameters={"store": name}).json()["code"] == "invalid_store"
    # The longest name is a name.
    in_store(open_server, "GET", "state", "a" * 64, 200, query={"path": "/todos"})
    # Policy and methods, as for /api/….
    page = {"Origin": "http://elsewhere.example"}
    in_store(open_server, "GET", "state", "team-new", 403, headers=page)
    request(open_server, "GET", "/api/stores", 403, headers=page)
    request(open_server, "DELETE", "/api/stores/{store}", 403, headers=page, path_parameters={"store": "team-new"})
    refused = requests.put(open_server.base + "/api/stores/team-new/state", timeout=10)
    assert refused.status_code == 405 and refused.headers["Allow"] == "GET, HEAD"
    assert requests.get(open_server.base + "/api/stores/team-new", timeout=10).headers["Allow"] == "DELETE"


def listing(server, expected: int = 200, headers=None, **query):
    return request(server, "GET", "/api/stores", expected, headers=headers, query=query or None)


def all_stores(server, headers=None, limit: int = 2) -> list[dict]:
    """Every store, page by page of `limit`."""
    stores, after = [], None
    while True:
        page = listing(server, headers=headers, limit=limit, **({"after": after} if after else {})).json()
        stores += page["stores"]
        if "next" not in page:
            return stores
        assert page["next"] == page["stores"][-1]["name"] and len(page["stores"]) == limit
        after = page["next"]


def test_store_listing(open_server):
    revs = {name: store_dispatch(open_server, name, {"type": "clearCompleted"}, 200).json()["rev"]
            for name in ("list-a", "list-b", "list-c")}
    whole = listing(open_server).json()
    assert "next" not in whole
    names = [store["name"] for store in whole["stores"]]
    assert names == sorted(names) and {"main", "list-a", "list-b", "list-c"} <= set(names)
    summary = {store["name"]: store for store in whole["stores"]}
    assert summary["list-a"].keys() == {"name", "open", "rev", "sessions", "bytes"}
    assert summary["list-a"]["open"] and summary["list-a"]["rev"] >= revs["list-a"] and summary["list-a"]["sessions"] == 0
    # --memory: the estimated size of the state as JSON.
    assert summary["list-a"]["bytes"] > 0
    # A page with `next`, and the next one after it.
    first = listing(open_server, limit=1, after="list-a").json()
    assert first == {"stores": [summary["list-b"]], "next": "list-b"}
    assert listing(open_server, limit=1, after="list-b").json()["stores"] == [summary["list-c"]]
    assert [store["name"] for store in all_stores(open_server)] == names
    assert listing(open_server, after="zzzz").json() == {"stores": []}
    for limit in (0, 1001, -1):
        assert listing(open_server, 400, limit=limit).json()["code"] == "bad_request"
    for after in ("Main", "", "-x"):
        assert listing(open_server, 400, after=after).json()["code"] == "invalid_store"


def watch_stream(server, store: str):
    """An open watch of `store` (a session in it until closed), its snapshot read."""
    response = requests.get(f"{server.base}/api/stores/{store}/watch?path=/todos", stream=True, timeout=10)
    assert response.status_code == 200
    # The lines' generator is kept with it: once collected, urllib3 closes the connection.
    response.lines = response.iter_lines()
    assert next(line for line in response.lines if line.startswith(b"event: ")) == b"event: snapshot"
    return response


def eventually(condition, seconds: float = 5):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not within 5 s"
        time.sleep(0.05)


def delete(server, store: str, expected: int, headers=None):
    return request(server, "DELETE", "/api/stores/{store}", expected, headers=headers, path_parameters={"store": store})


def test_store_deletion(open_server):
    import websockets.sync.client

    # A store with no session in it: deleted, gone from the listing; its name then makes a new, empty store.
    store_dispatch(open_server, "doomed", {"type": "addTodo", "title": "Gone"}, 200)
    assert delete(open_server, "doomed", 200).json() == {"deleted": "doomed"}
    assert "doomed" not in [store["name"] for store in listing(open_server).json()["stores"]]
    assert delete(open_server, "doomed", 404).json()["code"] == "not_found"
    assert in_store(open_server, "GET", "state", "doomed", 200, query={"path": "/todos"}).json()["value"] == []
    # A missing store, main.
    assert delete(open_server, "never-was", 404).json()["code"] == "not_found"
    assert delete(open_server, "main", 409).json()["code"] == "conflict"
    # A store with a watch stream in it: 409 until the stream ends.
    store_dispatch(open_server, "watched", {"type": "clearCompleted"}, 200)
    stream = watch_stream(open_server, "watched")
    try:
        assert delete(open_server, "watched", 409).json()["code"] == "conflict"
        held = listing(open_server, limit=1, after="watche").json()["stores"][0]
        assert held["name"] == "watched" and held["open"] and held["sessions"] == 1
    finally:
        stream.close()
    eventually(lambda: listing(open_server, limit=1, after="watche").json()["stores"][0]["sessions"] == 0)
    delete(open_server, "watched", 200)
    # A store a WebSocket session used: 409 until the connection closes.
    store_dispatch(open_server, "played", {"type": "clearCompleted"}, 200)
    with websockets.sync.client.connect(f"ws://127.0.0.1:{open_server.port}/sync", open_timeout=10) as socket_:
        socket_.send(json.dumps({"type": "hello", "clientId": "c-del", "name": "del"}))
        socket_.send(json.dumps({"type": "get", "store": "played", "id": "g1", "path": "/todos"}))
        while (message := json.loads(socket_.recv(timeout=10)))["type"] not in ("value", "error"):
            pass
        assert message["type"] == "value", message
        assert delete(open_server, "played", 409).json()["code"] == "conflict"
    eventually(lambda: listing(open_server, limit=1, after="playe").json()["stores"][0]["sessions"] == 0)
    delete(open_server, "played", 200)


def test_stores_with_tokens(token_server):
    # A reader may not create a store, but may read one that exists.
    reader, writer, admin = bearer("reader"), bearer("writer"), bearer("admin")
    refused = in_store(token_server, "GET", "state", "made-later", 403, headers=reader, query={"path": "/todos"})
    assert refused.json()["code"] == "forbidden" and "may not create" in refused.json()["message"]
    in_store(token_server, "HEAD", "state", "made-later", 403, headers=reader, query={"path": "/todos"})
    refused = in_store(token_server, "GET", "watch", "made-later", 403, headers=reader, query={"path": ["/todos"]})
    assert "may not create" in refused.json()["message"]
    assert store_dispatch(token_server, "made-later", {"type": "clearCompleted"}, 403, headers=reader).json()["code"] == "forbidden"
    store_dispatch(token_server, "made-later", {"type": "addTodo", "title": "Milk"}, 200, headers=writer)
    assert in_store(token_server, "GET", "state", "made-later", 200, headers=reader, query={"path": "/todos"}).json()["value"]
    in_store(token_server, "GET", "watch", "made-later", 200, headers=reader, query={"path": ["/todos"]})
    # Without a known token: 401, on every store route.
    for headers in (None, {"Authorization": "Bearer unknown-token"}):
        store_dispatch(token_server, "made-later", {"type": "clearCompleted"}, 401, headers=headers)
        in_store(token_server, "GET", "state", "made-later", 401, headers=headers)
        in_store(token_server, "HEAD", "state", "made-later", 401, headers=headers)
        in_store(token_server, "GET", "watch", "made-later", 401, headers=headers)
        listing(token_server, 401, headers=headers)
        delete(token_server, "made-later", 401, headers=headers)
    # Listing and deleting are the admin's.
    for role in (reader, writer):
        assert listing(token_server, 403, headers=role).json()["code"] == "forbidden"
        assert delete(token_server, "made-later", 403, headers=role).json()["code"] == "forbidden"
    assert "made-later" in [store["name"] for store in all_stores(token_server, headers=admin)]
    delete(token_server, "made-later", 200, headers=admin)
    delete(token_server, "made-later", 404, headers=admin)


# No 429 before the bound on stores is reached.
FAST = ["--messages-per-second", "100000", "--burst", "100000"]


def test_store_bounds():
    # --max-resident-stores: with --memory no store closes, so main and one more fill 2.
    resident = Server("--max-resident-stores", "2", *FAST)
    try:
        store_dispatch(resident, "first", {"type": "clearCompleted"}, 200)
        for method, route in (("POST", "dispatch"), ("GET", "state"), ("HEAD", "state"), ("GET", "watch")):
            response = in_store(resident, method, route, "second", 503)
            assert header(response, "Retry-After") == "1"
            if method != "HEAD":
                assert response.json()["code"] == "limit_reached", response.json()
        # The open ones still answer.
        in_store(resident, "GET", "state", "first", 200)
    finally:
        resident.stop()
    # --store-creations-per-second 1: bursts of 10 stores from one address.
    creations = Server("--store-creations-per-second", "1", *FAST)
    try:
        answers = [in_store(creations, "GET", "state", f"s-{i}", None).status_code for i in range(12)]
        assert answers[:10] == [200] * 10 and 503 in answers[10:], answers
    finally:
        creations.stop()


def test_store_storage(stores_server):
    # A store that cannot be opened: 503 unavailable; the server and its other stores go on.
    for method, route in (("POST", "dispatch"), ("GET", "state"), ("HEAD", "state"), ("GET", "watch")):
        response = in_store(stores_server, method, route, "broken", 503)
        assert header(response, "Retry-After") == "1"
        if method != "HEAD":
            assert response.json()["code"] == "unavailable", response.json()
    summary = {store["name"]: store for store in listing(stores_server).json()["stores"]}
    # A data directory: the sizes of each store's files, open or not.
    assert summary["broken"].pop("bytes") >= 0 and summary["old"].pop("bytes") >= 0
    assert summary["broken"] == {"name": "broken", "open": False, "sessions": 0}
    assert summary["old"] == {"name": "old", "open": False, "sessions": 0}
    # --max-stores 5: main, broken, old, sticky and one more.
    store_dispatch(stores_server, "fresh", {"type": "clearCompleted"}, 200)
    assert store_dispatch(stores_server, "one-more", {"type": "clearCompleted"}, 503).json()["code"] == "limit_reached"
    # A closed store is deleted too; then there is room for one more.
    delete(stores_server, "old", 200)
    store_dispatch(stores_server, "one-more", {"type": "clearCompleted"}, 200)
    # Rows the storage refuses to delete: 500.
    failed = delete(stores_server, "sticky", 500).json()
    assert "could not be removed" in failed["message"], failed


# Server bugs found while documenting the store routes, fixed: each test failed before the fix.

def test_store_listing_refuses_a_limit_that_is_no_integer(open_server):
    for url in ("/api/stores?limit=abc", "/api/stores?limit="):
        assert raw(open_server, "GET", "/api/stores", url, 400).json()["code"] == "bad_request"


def test_store_listing_refuses_an_undecodable_after(open_server):
    assert raw(open_server, "GET", "/api/stores", "/api/stores?after=%FF", 400).json()["code"] == "invalid_store"


def test_store_deletion_failure_is_no_conflict(stores_server):
    assert delete(stores_server, "sticky", 500).json()["code"] != "conflict"


# Limits (the limits server: 1 request a second, bursts of 2, 2 KiB bodies, 3 s per request, 3 connections).

def test_body_too_large(limits_server):
    response = dispatch(limits_server, {"type": "postMessage", "text": "x" * 4096}, 413)
    assert header(response, "Content-Type").startswith("text/plain")
    # Any request's body, whatever the route.
    for method, path in OPERATIONS:
        request(limits_server, method, path, 413, data=b"x" * 4096)


def test_head_too_large(limits_server):
    # A head still incomplete past 16 KiB (one that completes within a
    # single read is parsed whatever its size).
    answer = raw_answer(limits_server.port, b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + b"x" * 17_000)
    assert answer.startswith("HTTP/1.1 431 ") and "text/plain" in answer, answer


def test_rate_limited(limits_server):
    for _ in range(3):
        case = schema["/api/state"]["GET"].Case()
        response = call(case, limits_server.base)
    assert response.status_code == 429, "3 requests at once were not refused 429"
    assert response.json()["code"] == "rate_limited" and header(response, "Retry-After") == "1"
    # The rate is per address, over every /api/… route.
    for method, path in OPERATIONS:
        if path.startswith("/api/"):
            refused(limits_server, method, path)


def refused(server, method: str, path: str):
    """A 429 for `method path`, in at most 3 requests: a token comes back
    every second, and a slow machine may let one in."""
    for _ in range(2):
        try:
            return request(server, method, path, 429)
        except AssertionError:
            continue
    return request(server, method, path, 429)


def test_request_timeout(limits_server):
    answer = raw_answer(limits_server.port, b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    assert answer.startswith("HTTP/1.1 408 ") and "text/plain" in answer, answer


@pytest.mark.parametrize("status", ["408", "431"])
def test_every_operation_documents(status):
    # Answered before routing, so to any operation; checked above on one.
    document = yaml.safe_load(SPEC.read_text())
    for path, item in document["paths"].items():
        for method, operation in item.items():
            assert status in operation["responses"], f"{method.upper()} {path} does not document {status}"


def test_connection_limit(limits_server):
    # Three idle connections fill this address's share; the next one is refused.
    idle = [socket.create_connection(("127.0.0.1", limits_server.port), timeout=10) for _ in range(3)]
    try:
        time.sleep(0.2)
        for method, path in OPERATIONS:
            response = request(limits_server, method, path, 503)
            assert header(response, "Retry-After") == "1"
    finally:
        for connection in idle:
            connection.close()


def test_too_many_clients(clients_server):
    dispatch(clients_server, {"action": {"type": "clearCompleted"}, "clientId": "first", "id": "1"}, 200)
    refused = dispatch(clients_server, {"action": {"type": "clearCompleted"}, "clientId": "second", "id": "1"}, 503)
    assert refused.json()["code"] == "too_many_clients"


# Last: the statuses the document lists were all answered above.

def test_every_documented_status_was_answered(request):
    if request.config.getoption("keyword") or request.config.getoption("markexpr") \
            or any("::" in argument for argument in request.config.args):
        pytest.skip("needs every other test of this file to have run")
    document = yaml.safe_load(SPEC.read_text())
    never = sorted(
        f"{method.upper()} {path} {status}"
        for path, item in document["paths"].items() for method, operation in item.items()
        for status in map(int, operation["responses"])
        if status not in BEFORE_ROUTING and (method.upper(), path, status) not in ANSWERED | UNREACHABLE)
    assert not never, f"documented, never answered here (a test missing, or a status the server does not answer): {never}"
