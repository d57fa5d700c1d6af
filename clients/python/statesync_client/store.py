"""One store of the server over a client's connection (``client.store(name)``)."""

from __future__ import annotations

import re
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from typing import TYPE_CHECKING

from .errors import StateSyncError
from .messages import JSON, Reading

if TYPE_CHECKING:
    from .client import StateSyncClient
    from .subscription import Callback, Subscription

#: The store a message without ``store`` is about.
MAIN = "main"

_STORE_NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}")
STORE_RULE = 'a store name is 1 to 64 characters of a-z, 0-9, ".", "_" and "-", starting with a letter or a digit'


def check_store_name(name: object) -> str:
    """``name`` when it is a valid store name (docs/PROTOCOL.md, "Stores").

    Raises ``TypeError`` for a name that is not a ``str`` and ``StateSyncError``
    ``invalid_store``, naming the rule, for one against it.
    """
    if not isinstance(name, str):
        raise TypeError(f"a store name must be a str, not {name!r}")
    if _STORE_NAME.fullmatch(name) is None:
        raise StateSyncError("invalid_store", f"invalid store {name!r}: {STORE_RULE}")
    return name


class Store:
    """One store of the server over its client's connection, made by ``client.store(name)``.

    It has the client's reading and writing API (``subscribe``, ``observe``,
    ``watch``, ``peek``, ``get``, ``dispatch``) for this store; the client's own
    methods are the store ``main``'s. Subscriptions, requests and their ids are
    this store's own; after a reconnect it resumes on its own (``since`` within
    its epoch; a new epoch of this store starts only its mirrors over).

    Example::

        team = client.store("team-42")
        todos = await team.subscribe("/todos")
        await team.dispatch({"type": "addTodo", "title": "Milk"})
    """

    def __init__(self, client: StateSyncClient, name: str) -> None:
        self._client = client
        self._name = name
        #: The store's epoch: from its snapshots and values (main: ``welcome``); None until one came.
        self._epoch: str | None = None
        #: The newest revision of this store seen (of its current epoch).
        self._rev: int | None = None
        self._subscriptions: dict[str, Subscription] = {}
        self._counter = 0
        # After a reconnect: the id of the `get` that asks the store's epoch
        # before its subscriptions resume, and the subscriptions it resumes.
        self._probe: str | None = None
        self._resuming: list[Subscription] = []

    @property
    def name(self) -> str:
        """The store's name."""
        return self._name

    @property
    def client(self) -> StateSyncClient:
        """The client whose connection it works over."""
        return self._client

    @property
    def epoch(self) -> str | None:
        """The store's epoch, once a snapshot or value of it (main: ``welcome``) told it."""
        return self._epoch

    @property
    def rev(self) -> int | None:
        """The newest revision of this store seen (of its current epoch), or None."""
        return self._rev

    def _next_id(self, prefix: str) -> str:
        self._counter += 1
        return f"{prefix}{self._counter}"

    async def subscribe(self, path: str, callback: Callback | None = None) -> Subscription:
        """As ``StateSyncClient.subscribe``, in this store."""
        return await self._client._subscribe_in(self, path, callback)

    async def observe(self, path: str, callback: Callback) -> Callable[[], Awaitable[None]]:
        """As ``StateSyncClient.observe``, in this store."""
        return await self._client._observe_in(self, path, callback)

    def watch(self, path: str) -> AsyncGenerator[JSON, None]:
        """As ``StateSyncClient.watch``, in this store."""
        return self._client._watch_in(self, path)

    def peek(self, path: str) -> JSON:
        """As ``StateSyncClient.peek``, in this store's mirrors."""
        return self._client._peek_in(self, path)

    async def get(self, path: str) -> Reading:
        """As ``StateSyncClient.get``, in this store."""
        return await self._client._get_in(self, path)

    async def dispatch(self, action: Mapping[str, JSON]) -> int:
        """As ``StateSyncClient.dispatch``, to this store (action ids are per store)."""
        return await self._client._dispatch_in(self, action)

    def __repr__(self) -> str:
        return f"<Store {self._name!r} rev={self._rev}>"
