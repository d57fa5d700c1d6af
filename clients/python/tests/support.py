"""Helpers of the tests that run the client against a real `statesync serve`."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from collections.abc import Callable, Coroutine
from typing import Any

TIMEOUT = 15


async def until(predicate: Callable[[], bool], what: str, timeout: float = TIMEOUT) -> None:
    """Waits for a condition the client's callbacks make true (checked on each change)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


def run(coroutine: Coroutine[Any, Any, Any]) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 60))


async def server_subscriptions(url: str, client_id: str) -> list[str]:
    """The paths the server holds subscriptions to for the session of ``client_id``
    (its devtools sessions API; the test servers run without tokens)."""
    http = url.replace("ws://", "http://", 1).removesuffix("/sync")

    def read() -> Any:
        with urllib.request.urlopen(f"{http}/devtools/api/sessions", timeout=TIMEOUT) as answer:
            return json.load(answer)

    sessions = (await asyncio.to_thread(read))["sessions"]
    return sorted(s["path"] for session in sessions if session["clientId"] == client_id for s in session["subscriptions"])


async def until_subscribed(url: str, client_id: str, paths: list[str]) -> None:
    """Waits until the server holds exactly the subscriptions to ``paths`` for ``client_id``."""
    deadline = asyncio.get_running_loop().time() + TIMEOUT
    while (held := await server_subscriptions(url, client_id)) != sorted(paths):
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"the server holds subscriptions to {held}, not {sorted(paths)}")
        await asyncio.sleep(0.05)
