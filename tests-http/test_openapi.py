"""docs/openapi.yaml against a real server.

- The document is valid OpenAPI 3.1.
- Schemathesis generates requests for every operation (the document's
  examples, boundary values, random data) and checks each answer: no 5xx,
  a documented status code, content type, headers and body schema. Once on
  an open server, once on a server with tokens, with no token, an unknown
  one, or one of each role.
- Targeted requests reach each status code that can be reached from outside
  (401, 403, 408, 409, 413, 429, 431, 503 …) and check the answer the same
  way, so that a status the document left out fails here.
- The last test checks the other way round: every status code the document
  lists for an operation was answered by it, so that the document claims
  nothing the server does not do.
"""

from __future__ import annotations

import itertools
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

from conftest import REPO, TOKENS

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

WATCH_READ = 1.0

# Every operation as (method, path).
OPERATIONS = [(method.upper(), path) for path, item in schema.raw_schema["paths"].items() for method in item]

# (method, path, status) of every answer checked here.
ANSWERED: set[tuple[str, str, int]] = set()

# Documented statuses no request from outside can bring about: a journal that
# failed for good. 408 and 431 are answered before routing and checked once
# (test_request_timeout, test_head_too_large).
UNREACHABLE = {("POST", "/api/dispatch", 500)}
BEFORE_ROUTING = {408, 431}


def call(case, base: str, checks=CHECKS, **kwargs):
    """Sends `case` to `base` and checks the answer against the document."""
    timeout = WATCH_READ if case.operation.path == "/api/watch" else 10
    response = case.call(base_url=base, timeout=timeout, **kwargs)
    case.validate_response(response, checks=checks)
    ANSWERED.add((case.operation.method.upper(), case.operation.path, response.status_code))
    return response


def request(server, method: str, path: str, expected: int, headers=None, data=None, **case_fields):
    """One targeted request, checked against the document; its status must be `expected`.
    `data` replaces the body with these bytes."""
    if method == "POST" and "body" not in case_fields:
        case_fields.update(body={"type": "clearCompleted"}, media_type="application/json")
    case = schema[path][method].Case(**case_fields)
    # A 503 is expected here: only what the document says about it is checked.
    checks = [check for check in CHECKS if expected != 503 or check is not not_a_server_error]
    response = call(case, server.base, checks=checks, headers=headers, **({"data": data} if data else {}))
    assert response.status_code == expected, f"{method} {path}: {response.status_code} {response.text[:300]}"
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
    second = dispatch(open_server, {"action": {"type": "say", "text": "deployed"}, "clientId": "ci", "id": "build-1",
                                    "name": "ci"}, 200).json()["rev"]
    assert second > first
    # The same pair answers its first outcome again, applied once.
    again = dispatch(open_server, {"action": {"type": "say", "text": "deployed"}, "clientId": "ci", "id": "build-1"}, 200)
    assert again.json()["rev"] == second
    keyed = dispatch(open_server, {"type": "increment", "counter": "paid"}, 200, headers={"Idempotency-Key": "k-1"})
    assert dispatch(open_server, {"type": "increment", "counter": "paid"}, 200,
                    headers={"Idempotency-Key": "k-1"}).json() == keyed.json()

    assert dispatch(open_server, {"type": "toggleTodo", "id": "nope"}, 409).json()["code"] == "not_found"
    assert dispatch(open_server, {"type": "bogus"}, 422).json()["code"] == "invalid_action"
    assert dispatch(open_server, [1], 400).json()["code"] == "bad_json"
    assert dispatch(open_server, {"action": 3}, 400).json()["code"] == "bad_request"
    assert dispatch(open_server, {"type": "say", "text": "x"}, 400,
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


# Limits (the limits server: 1 request a second, bursts of 2, 2 KiB bodies, 3 s per request, 3 connections).

def test_body_too_large(limits_server):
    response = dispatch(limits_server, {"type": "say", "text": "x" * 4096}, 413)
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
