"""The bounded hand-off behind ``StateSyncClient.watch``: the newest value, not a queue.

A watcher that reads slower than the state changes skips to the newest value
instead of buffering every one, so its memory stays constant however far it
falls behind (the server coalesces patches for a slow reader the same way).
"""

from __future__ import annotations

import asyncio

from .errors import StateSyncError
from .messages import JSON


class LatestValue:
    """An async iterator over the newest value ``put``, until ``end``.

    It holds one value: one put before the last was taken replaces it.
    """

    def __init__(self) -> None:
        self._ready = asyncio.Event()
        self._value: JSON = None
        self._waiting = False
        self._end: StateSyncError | None = None

    def put(self, value: JSON) -> None:
        """Makes ``value`` the next one to be taken, replacing any not taken yet."""
        self._value, self._waiting = value, True
        self._ready.set()

    def end(self, reason: StateSyncError) -> None:
        """Ends the iteration after the value waiting, if any: quietly when ``reason.code``
        is ``closed``, else by raising ``reason``."""
        if self._end is None:
            self._end = reason
        self._ready.set()

    def __aiter__(self) -> LatestValue:
        return self

    async def __anext__(self) -> JSON:
        await self._ready.wait()
        if not self._waiting and self._end is not None:
            if self._end.code == "closed":
                raise StopAsyncIteration
            raise self._end
        value, self._value, self._waiting = self._value, None, False
        if self._end is None:
            self._ready.clear()
        return value
