"""Real `statesync serve` processes for the HTTP API's tests (in memory, or
on a data directory prepared beforehand).

The binary is the repository's `.build/debug/statesync` (built by
`swift build`), or the path in the STATESYNC_BIN environment variable.
"""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
import requests

REPO = Path(__file__).resolve().parent.parent
LISTENING = re.compile(r"statesync listening on ws://127\.0\.0\.1:(\d+)/sync")

# Tokens of the server with authentication on, by role.
TOKENS = {"reader": "reader-token", "writer": "writer-token", "admin": "admin-token"}

# Both API servers keep a role from /presence and resetCounter, so that 403
# answers happen on an open server too. The rates are high enough that the
# generated requests are not refused 429 (the limits server checks 429), nor
# their new stores 503 limit_reached (the store bounds are checked apart).
COMMON = ["--restrict-read", "/presence=admin", "--restrict-action", "resetCounter=admin",
          "--messages-per-second", "100000", "--burst", "100000", "--store-creations-per-second", "100000"]


def binary() -> str:
    path = os.environ.get("STATESYNC_BIN") or str(REPO / ".build" / "debug" / "statesync")
    if not os.access(path, os.X_OK):
        pytest.fail(f"no statesync binary at {path}: run `swift build` first (or set STATESYNC_BIN)")
    return path


class Server:
    """One `statesync serve` on a free loopback port, in memory or on the data
    directory `data`; `base` is its http:// URL."""

    def __init__(self, *arguments: str, data: Path | None = None) -> None:
        # The log goes to a file: a pipe nobody reads could fill and stall the server.
        self.log = tempfile.TemporaryFile(mode="w+")
        storage = ["--data", str(data)] if data else ["--memory"]
        self.process = subprocess.Popen(
            [binary(), "serve", *storage, "--host", "127.0.0.1", "--port", "0", *arguments],
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        assert self.process.stdout is not None
        deadline = time.monotonic() + 30
        while True:
            line = self.process.stdout.readline()
            if not line:
                pytest.fail(f"statesync serve {' '.join(arguments)} exited before listening:\n{self.log_text()}")
            match = LISTENING.search(line)
            if match:
                self.port = int(match.group(1))
                self.base = f"http://127.0.0.1:{self.port}"
                return
            if time.monotonic() > deadline:
                self.process.kill()
                pytest.fail("statesync serve did not print its address within 30 s")

    def log_text(self) -> str:
        self.log.seek(0)
        return self.log.read()[-4000:]

    def stop(self) -> None:
        """Stops the server; fails when it had died meanwhile (a crash is a bug)."""
        crashed = self.process.poll()
        if crashed is None:
            self.process.terminate()
            self.process.wait(timeout=30)
        if self.process.stdout:
            self.process.stdout.close()
        log = self.log_text()
        self.log.close()
        assert crashed is None, f"statesync serve exited with {crashed} during the tests:\n{log}"


def _server(*arguments: str, data: Path | None = None):
    server = Server(*arguments, data=data)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def open_server():
    """No tokens: every request is a writer."""
    yield from _server(*COMMON)


@pytest.fixture(scope="session")
def token_server():
    """Tokens required; /metrics for admins only."""
    tokens = [argument for role, token in TOKENS.items() for argument in ("--token", f"{token}={role}")]
    yield from _server(*COMMON, *tokens, "--metrics-admin-only")


@pytest.fixture(scope="session")
def clients_server():
    """Outcomes remembered for one clientId only."""
    yield from _server("--max-client-ids", "1")


@pytest.fixture(scope="session")
def limits_server():
    """Small limits, to reach them: 1 request a second per address (bursts
    of 2), 2 KiB bodies, 3 s to send a request, 3 connections per address."""
    yield from _server("--messages-per-second", "1", "--burst", "2", "--max-message-bytes", "2048",
                       "--request-timeout", "3", "--max-connections-per-ip", "3")


@pytest.fixture(scope="session")
def stores_server(tmp_path_factory):
    """A data directory holding, besides `main`: `broken` (its stored entry
    and snapshot do not decode: it cannot be opened), `old` (closed, to
    delete) and `sticky` (a trigger in the stores' file refuses to delete
    its row, as a failing storage would: deleting it fails); at most 5 stores
    in all, so one more can be created."""
    data = tmp_path_factory.mktemp("stores-data")
    setup = Server("--messages-per-second", "100000", "--burst", "100000", data=data)
    for store in ("broken", "old", "sticky"):
        response = requests.post(f"{setup.base}/api/stores/{store}/dispatch", json={"type": "clearCompleted"}, timeout=30)
        assert response.status_code == 200, response.text
    setup.stop()   # a clean stop: each store's final snapshot, the log checkpointed away
    with sqlite3.connect(data / "stores.sqlite") as db:
        broken = "(SELECT id FROM stores WHERE name = 'broken')"
        db.execute(f"UPDATE snapshots SET state = x'7b' WHERE store_id = {broken}")
        db.execute(f"UPDATE journal SET action = x'7b' WHERE store_id = {broken}")
        db.execute("""CREATE TRIGGER sticky BEFORE DELETE ON stores WHEN old.name = 'sticky'
                      BEGIN SELECT RAISE(ABORT, 'the storage refuses'); END""")
    db.close()
    server = Server("--max-stores", "5", "--messages-per-second", "100000", "--burst", "100000", data=data)
    yield server
    server.stop()
