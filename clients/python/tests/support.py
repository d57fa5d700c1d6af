"""Helpers of the tests that run the client against a real `statesync serve`."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import time
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


#: The HS256 secret of the servers ``jwt_server`` starts (the server wants at least 32 bytes).
JWT_SECRET = "statesync-py-test-secret-0123456789abcdef"


def mint_jwt(claims: dict[str, Any], secret: str = JWT_SECRET) -> str:
    """A JWT of ``claims`` signed with HS256 and ``secret``; ``exp`` defaults to in 10 minutes."""
    def encode(value: Any) -> str:
        return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()

    body = f"{encode({'alg': 'HS256', 'typ': 'JWT'})}.{encode({'exp': int(time.time()) + 600, **claims})}"
    signature = hmac.new(secret.encode(), body.encode(), hashlib.sha256).digest()
    return f"{body}.{base64.urlsafe_b64encode(signature).rstrip(b'=').decode()}"
