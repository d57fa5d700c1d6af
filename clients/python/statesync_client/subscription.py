"""A subscription's mirror and the observers of paths inside it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from .errors import StateSyncError
from .messages import JSON
from .patch import json_equal, value_at

if TYPE_CHECKING:
    from .client import StateSyncClient

#: ``callback(value, rev)``: a value of the state and the revision it is at.
Callback = Callable[[JSON, int], None]
#: ``on_end(reason)``: the subscription is over; ``reason.code`` is ``closed`` when it was closed.
EndCallback = Callable[[StateSyncError], None]

_MISSING = object()


class Observer:
    """A callback on the value at ``relative`` (the tokens below its subscription's path).

    It hears a value only when it differs from the last one it heard.
    """

    def __init__(self, relative: list[str], callback: Callback, on_end: EndCallback | None = None) -> None:
        self.relative = relative
        self.callback = callback
        self.on_end = on_end
        self.last: object = _MISSING

    def notify(self, mirror: JSON, rev: int) -> None:
        """Calls the callback with the value at ``relative`` in ``mirror`` if it changed."""
        value = value_at(mirror, self.relative)
        if self.last is not _MISSING and (self.last is value or json_equal(self.last, value)):
            return
        self.last = value
        self.callback(value, rev)


class Subscription:
    """The mirror of one subscribed path: ``value`` at ``rev`` (None before the first snapshot).

    ``implicit`` subscriptions were opened by ``observe`` or ``watch`` and close
    with their last observer. ``store`` is the store it is in (its ``id`` is
    that store's: the same id in two stores is two subscriptions).
    """

    def __init__(
        self, client: StateSyncClient, sub_id: str, path: str, *, implicit: bool = False, store: str = "main",
    ) -> None:
        self._client = client
        self.id = sub_id
        self.path = path
        self.store = store
        self.implicit = implicit
        self.value: JSON = None
        self.rev: int | None = None
        self.callbacks: list[Callback] = []
        self.observers: list[Observer] = []
        #: Why the subscription is over (the client closed, the server refused it), or None.
        self.ended: StateSyncError | None = None
        self._settled = asyncio.Event()

    async def close(self) -> None:
        """Unsubscribes; observers riding on this mirror stop (a ``watch`` ends)."""
        await self._client._unsubscribe(self)

    async def first_snapshot(self) -> None:
        """Waits for the first snapshot; raises the error that ended the subscription instead."""
        await self._settled.wait()
        if self.ended is not None:
            raise self.ended

    def apply(self, value: JSON, rev: int) -> None:
        """Sets the mirror and tells the callbacks and the observers whose value changed."""
        self.value, self.rev = value, rev
        self._settled.set()
        for callback in list(self.callbacks):
            callback(value, rev)
        for observer in list(self.observers):
            observer.notify(value, rev)

    def end(self, reason: StateSyncError) -> None:
        """Marks the subscription over and tells whoever waits for it or observes it."""
        if self.ended is not None:
            return
        self.ended = reason
        self._settled.set()
        for observer in list(self.observers):
            if observer.on_end is not None:
                observer.on_end(reason)
