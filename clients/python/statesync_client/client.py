"""An asyncio StateSync client (docs/PROTOCOL.md, statesync.v1) on ``websockets``.

It keeps a mirror of each subscription (snapshot, then RFC 6902 patches with
``base`` checks), lets callers observe focused paths inside those mirrors,
dispatches actions with their ack or reject, and reconnects by itself with
exponential backoff and jitter, resuming subscriptions with ``since`` in the
same epoch and starting them over in a new one. Given several URLs (the nodes
of a cluster), it fails over to the next one whenever a connection ends.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from .errors import StateSyncError
from .patch import apply_patch, json_equal, parse_pointer, relative_tokens, value_at

Callback = Callable[[Any, int], None]

#: Server errors after which retrying cannot help (bad token, no hello).
_FATAL = {"unauthorized", "hello_required"}
_MISSING = object()


def _split_urls(url: str | Sequence[str]) -> list[str]:
    """The URLs of ``url``: one, a list, or a comma-separated string; at least one."""
    parts = url.split(",") if isinstance(url, str) else list(url)
    urls = [part.strip() for part in parts if part.strip()]
    if not urls:
        raise ValueError("StateSyncClient needs at least one URL")
    return urls


class Subscription:
    """The mirror of one subscribed path: ``value`` at ``rev`` (None before the first snapshot)."""

    def __init__(self, client: StateSyncClient, sub_id: str, path: str) -> None:
        self._client = client
        self.id = sub_id
        self.path = path
        self.value: Any = None
        self.rev: int | None = None
        self.callbacks: list[Callback] = []
        self.observers: list[_Observer] = []
        self.first: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def close(self) -> None:
        """Unsubscribes."""
        await self._client._unsubscribe(self)


class _Observer:
    def __init__(self, relative: list[str], callback: Callback) -> None:
        self.relative = relative
        self.callback = callback
        self.last: Any = _MISSING


class StateSyncClient:
    """A connection to a StateSync server with mirrors of its subscriptions.

    ``connection`` is ``"connecting"``, ``"open"``, ``"reconnecting"`` or ``"closed"``.

    ``url`` is one WebSocket URL, several (a list, or one string separated by
    commas): the nodes of a cluster. The client connects to the first; when a
    connection ends or fails it tries the next one, in turn, so a dead node
    costs one short backoff. The backoff grows with each full round of
    failures, not with each node tried. ``url`` (the attribute) is the node
    in use or being tried.

    Example::

        async with StateSyncClient("ws://127.0.0.1:8080/sync", name="py") as client:
            todos = await client.subscribe("/todos")
            rev = await client.dispatch({"type": "addTodo", "title": "Milk"})
            print(rev, todos.value)
    """

    def __init__(
        self,
        url: str | Sequence[str],
        *,
        token: str | None = None,
        name: str | None = None,
        client_id: str | None = None,
        initial_backoff: float = 0.25,
        max_backoff: float = 10.0,
    ) -> None:
        self.urls = _split_urls(url)
        self._url_index = 0
        self.token = token
        self.name = name
        self.client_id = client_id or f"c-{os.urandom(8).hex()}"
        self.initial_backoff = initial_backoff
        self.max_backoff = max_backoff
        self.connection = "closed"
        self.welcome: dict[str, Any] | None = None
        self.rev: int | None = None
        self.last_error: StateSyncError | None = None
        self._socket: ClientConnection | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopped = False
        self._counter = 0
        # Action ids are "<prefix>-a<n>": the server de-duplicates on (clientId, id),
        # so a new instance given a saved client_id must not reuse an earlier
        # instance's ids (it would get that action's remembered outcome, and its
        # own action would never be applied). 12 random hex digits per instance.
        self.action_id_prefix = os.urandom(6).hex()
        self._subscriptions: dict[str, Subscription] = {}
        self._pending: dict[str, tuple[dict[str, Any], asyncio.Future[Any]]] = {}
        self._listeners: list[Callable[[str], None]] = []
        self._welcomed: asyncio.Event = asyncio.Event()

    @property
    def url(self) -> str:
        """The URL of the node in use, or being tried."""
        return self.urls[self._url_index]

    async def __aenter__(self) -> StateSyncClient:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # MARK: Connection

    async def connect(self, timeout: float = 10.0) -> dict[str, Any]:
        """Starts the connection (and its reconnects) and returns the first ``welcome``.

        Raises ``StateSyncError`` when the server refuses the session (``unauthorized``)
        or no session opens within ``timeout`` seconds (``timeout``).
        """
        self._stopped = False
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"statesync {self.url}")
        try:
            await asyncio.wait_for(self._welcomed.wait(), timeout)
        except asyncio.TimeoutError:
            raise StateSyncError("timeout", f"no session with {self.url} within {timeout} s") from None
        if self.welcome is None:
            raise self.last_error or StateSyncError("closed", "the client was closed")
        return self.welcome

    async def close(self) -> None:
        """Closes for good: no reconnect; pending requests fail with ``closed``."""
        self._stopped = True
        if self._socket is not None:
            await self._socket.close()
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None
        self._fail(StateSyncError("closed", "the client was closed"))
        self._set_connection("closed")

    def on_connection(self, callback: Callable[[str], None]) -> Callable[[], None]:
        """Calls ``callback(state)`` now and on every change; returns a function that stops it."""
        self._listeners.append(callback)
        callback(self.connection)
        return lambda: self._listeners.remove(callback)

    # MARK: Reading and writing

    async def subscribe(self, path: str, callback: Callback | None = None) -> Subscription:
        """Subscribes to ``path`` and returns its mirror once the first snapshot is in.

        ``callback(value, rev)`` runs with the snapshot and after each patch.
        Raises ``StateSyncError`` (``invalid_path``, ``forbidden``).
        """
        subscription = self._open_subscription(path)
        if callback:
            subscription.callbacks.append(callback)
        await self._send_subscribe(subscription, resume=False)
        await subscription.first
        return subscription

    async def observe(self, path: str, callback: Callback) -> Callable[[], Any]:
        """Calls ``callback(value, rev)`` with the value at ``path`` now and whenever it changes.

        The value comes from the mirror of an open subscription containing ``path``
        (``/todos/0/title`` rides on a subscription to ``/todos``); without one, a
        subscription at ``path`` is opened, and closed with its last observer.
        Returns an async function that stops observing.
        """
        tokens = parse_pointer(path)
        owner: Subscription | None = None
        for subscription in self._subscriptions.values():
            if relative_tokens(subscription.path, path) is not None:
                if owner is None or len(parse_pointer(owner.path)) < len(parse_pointer(subscription.path)):
                    owner = subscription
        owns = owner is None
        if owner is None:
            owner = self._open_subscription(path)
            await self._send_subscribe(owner, resume=False)
        observer = _Observer(tokens[len(parse_pointer(owner.path)):], callback)
        owner.observers.append(observer)
        if owner.rev is not None:
            self._notify(owner, observer)
        subscription = owner

        async def stop() -> None:
            if observer in subscription.observers:
                subscription.observers.remove(observer)
            if owns and not subscription.observers and not subscription.callbacks:
                await subscription.close()

        return stop

    async def watch(self, path: str) -> AsyncIterator[Any]:
        """The value at ``path`` now and after each change, as an async iterator."""
        queue: asyncio.Queue[Any] = asyncio.Queue()
        stop = await self.observe(path, lambda value, rev: queue.put_nowait(value))
        try:
            while True:
                yield await queue.get()
        finally:
            await stop()

    def peek(self, path: str) -> Any:
        """The value at ``path`` in a mirror containing it, or None."""
        for subscription in self._subscriptions.values():
            relative = relative_tokens(subscription.path, path)
            if relative is not None and subscription.rev is not None:
                return value_at(subscription.value, relative)
        return None

    async def get(self, path: str) -> dict[str, Any]:
        """One-shot read: ``{"rev": ..., "value": ...}``."""
        parse_pointer(path)
        self._counter += 1
        return await self._request({"type": "get", "id": f"g{self._counter}", "path": path})

    async def dispatch(self, action: dict[str, Any]) -> int:
        """Sends an action and returns the revision of its ``ack`` (durable).

        Raises ``StateSyncError`` with the ``reject``'s code and message
        (``not_found``, ``invalid_action``, ``forbidden``, ...). Made while
        disconnected, it is sent on reconnect with the same id (exactly-once).
        The id is ``"<action_id_prefix>-a<n>"``, unique across instances that
        share a ``client_id``.
        """
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise StateSyncError("invalid_action", 'an action is an object with a string "type"')
        self._counter += 1
        action_id = f"{self.action_id_prefix}-a{self._counter}"
        reply = await self._request({"type": "dispatch", "id": action_id, "action": action})
        return int(reply["rev"])

    # MARK: Internals

    def _set_connection(self, state: str) -> None:
        if self.connection == state:
            return
        self.connection = state
        for listener in list(self._listeners):
            listener(state)

    async def _run(self) -> None:
        attempt = 0
        while not self._stopped:
            self._set_connection("connecting" if self.welcome is None and attempt == 0 else "reconnecting")
            try:
                async with connect(self.url, subprotocols=["statesync.v1"], open_timeout=10) as socket:
                    self._socket = socket
                    hello: dict[str, Any] = {"type": "hello", "clientId": self.client_id}
                    if self.token:
                        hello["token"] = self.token
                    if self.name:
                        hello["name"] = self.name
                    await socket.send(json.dumps(hello))
                    async for text in socket:
                        message = json.loads(text)
                        if message.get("type") == "welcome":
                            attempt = 0
                        await self._receive(message)
            except (OSError, ConnectionClosed, InvalidHandshake, InvalidURI, asyncio.TimeoutError, json.JSONDecodeError):
                pass  # the connection is gone; the loop reconnects
            finally:
                self._socket = None
            if self._stopped:
                break
            self._set_connection("reconnecting")
            self._url_index = (self._url_index + 1) % len(self.urls)
            ceiling = min(self.max_backoff, self.initial_backoff * 2 ** (attempt // len(self.urls)))
            attempt += 1
            await asyncio.sleep(ceiling * (0.5 + random.random() * 0.5))
        self._set_connection("closed")
        self._welcomed.set()

    async def _send(self, message: dict[str, Any]) -> None:
        socket = self._socket
        if socket is None or self.connection != "open":
            return
        try:
            await socket.send(json.dumps(message))
        except ConnectionClosed:
            pass  # re-sent after the reconnect

    async def _request(self, message: dict[str, Any]) -> Any:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[message["id"]] = (message, future)
        await self._send(message)
        return await future

    def _fail(self, error: StateSyncError) -> None:
        for _, future in self._pending.values():
            if not future.done():
                future.set_exception(error)
        self._pending.clear()
        for subscription in self._subscriptions.values():
            if not subscription.first.done():
                subscription.first.set_exception(error)

    def _open_subscription(self, path: str) -> Subscription:
        parse_pointer(path)
        self._counter += 1
        subscription = Subscription(self, f"s{self._counter}", path)
        self._subscriptions[subscription.id] = subscription
        return subscription

    async def _send_subscribe(self, subscription: Subscription, resume: bool) -> None:
        message: dict[str, Any] = {"type": "subscribe", "id": subscription.id, "path": subscription.path}
        if resume and subscription.rev is not None:
            message["since"] = subscription.rev
        await self._send(message)

    async def _unsubscribe(self, subscription: Subscription) -> None:
        if self._subscriptions.pop(subscription.id, None) is not None:
            await self._send({"type": "unsubscribe", "id": subscription.id})

    def _seen(self, rev: Any) -> None:
        if isinstance(rev, int) and (self.rev is None or rev > self.rev):
            self.rev = rev

    async def _receive(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "welcome":
            await self._on_welcome(message)
        elif kind == "snapshot":
            self._on_snapshot(message)
        elif kind == "patch":
            await self._on_patch(message)
        elif kind in ("ack", "value"):
            self._seen(message.get("rev"))
            pending = self._pending.pop(message.get("id"), None)
            if pending and not pending[1].done():
                pending[1].set_result({"rev": message["rev"], "value": message.get("value")})
        elif kind == "reject":
            pending = self._pending.pop(message.get("id"), None)
            if pending and not pending[1].done():
                pending[1].set_exception(StateSyncError(message["code"], message["message"]))
        elif kind == "error":
            self._on_error(message)

    async def _on_welcome(self, message: dict[str, Any]) -> None:
        previous = self.welcome
        self.welcome = message
        same_history = previous is not None and previous["epoch"] == message["epoch"]
        if previous is not None and not same_history:
            self.rev = message["rev"]  # revisions compare only within one epoch
        self._seen(message["rev"])
        self._set_connection("open")
        for subscription in list(self._subscriptions.values()):
            if not same_history:
                subscription.rev = None
            await self._send_subscribe(subscription, resume=same_history)
        for request, _ in list(self._pending.values()):
            await self._send(request)
        self._welcomed.set()

    def _on_snapshot(self, message: dict[str, Any]) -> None:
        self._seen(message["rev"])
        subscription = self._subscriptions.get(message["id"])
        if subscription is None:
            return
        subscription.value = message["value"]
        subscription.rev = message["rev"]
        self._changed(subscription)

    async def _on_patch(self, message: dict[str, Any]) -> None:
        self._seen(message["rev"])
        subscription = self._subscriptions.get(message["id"])
        if subscription is None:
            return
        if subscription.rev != message["base"]:
            # A gap: something was missed. Start this subscription over.
            subscription.rev = None
            await self._send_subscribe(subscription, resume=False)
            return
        try:
            subscription.value = apply_patch(subscription.value, message["ops"])
        except StateSyncError:
            subscription.rev = None
            await self._send_subscribe(subscription, resume=False)
            return
        subscription.rev = message["rev"]
        if message["ops"]:
            self._changed(subscription)

    def _on_error(self, message: dict[str, Any]) -> None:
        error = StateSyncError(message.get("code", "unknown"), message.get("message", ""))
        sub_id = message.get("id")
        subscription = self._subscriptions.pop(sub_id, None) if sub_id is not None else None
        if subscription is not None:
            if not subscription.first.done():
                subscription.first.set_exception(error)
            return
        pending = self._pending.pop(sub_id, None) if sub_id is not None else None
        if pending is not None:
            if not pending[1].done():
                pending[1].set_exception(error)
            return
        self.last_error = error
        if error.code in _FATAL:
            self._stopped = True
            self._fail(error)
            self._set_connection("closed")
            self._welcomed.set()

    def _changed(self, subscription: Subscription) -> None:
        if not subscription.first.done():
            subscription.first.set_result(None)
        for callback in list(subscription.callbacks):
            callback(subscription.value, subscription.rev or 0)
        for observer in list(subscription.observers):
            self._notify(subscription, observer)

    def _notify(self, subscription: Subscription, observer: _Observer) -> None:
        value = value_at(subscription.value, observer.relative)
        if observer.last is not _MISSING and (observer.last is value or json_equal(observer.last, value)):
            return
        observer.last = value
        observer.callback(value, subscription.rev or 0)
