"""Starts real `statesync serve` processes for the tests.

The binary is `.build/debug/statesync` of the repository (built by
`swift build`), or the path in the STATESYNC_BIN environment variable.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from support import JWT_SECRET

REPO = Path(__file__).resolve().parents[3]
LISTENING = re.compile(r"statesync listening on (ws://\S+:(\d+)/sync)")


def binary() -> str:
    path = os.environ.get("STATESYNC_BIN") or str(REPO / ".build" / "debug" / "statesync")
    if not os.access(path, os.X_OK):
        pytest.fail(f"no statesync binary at {path}: run `swift build` first (or set STATESYNC_BIN)")
    return path


class Server:
    """One `statesync serve` child process; `url` once it listens."""

    def __init__(self, *arguments: str) -> None:
        self.arguments = arguments
        self.process = subprocess.Popen(
            [binary(), "serve", "--host", "127.0.0.1", *arguments],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 30
        assert self.process.stdout is not None
        while True:
            line = self.process.stdout.readline()
            if not line:
                error = self.process.stderr.read() if self.process.stderr else ""
                pytest.fail(f"statesync serve {' '.join(arguments)} exited before listening: {error}")
            match = LISTENING.search(line)
            if match:
                self.url, self.port = match.group(1), int(match.group(2))
                return
            if time.monotonic() > deadline:
                self.stop()
                pytest.fail("statesync serve did not print its address within 30 s")

    def stop(self) -> int:
        """SIGTERM (graceful: final snapshot, 1001 to clients) and wait."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=30)
        finally:
            for stream in (self.process.stdout, self.process.stderr):
                if stream:
                    stream.close()


@pytest.fixture
def start_server():
    """A factory of servers, all stopped after the test."""
    servers: list[Server] = []

    def start(*arguments: str) -> Server:
        server = Server(*arguments)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def jwt_key_file(tmp_path) -> str:
    """A `--jwt-key-file` holding support.JWT_SECRET (HS256)."""
    path = tmp_path / "jwt-secret"
    path.write_text(JWT_SECRET)
    path.chmod(0o600)
    return str(path)


@pytest.fixture
def server(start_server) -> Server:
    """A fresh in-memory server on a port the OS chose."""
    return start_server("--memory", "--port", "0")
