"""An asyncio StateSync client (docs/PROTOCOL.md, statesync.v1) on ``websockets``.

It keeps a mirror of each subscription (snapshot, then RFC 6902 patches with
``base`` checks), lets callers observe focused paths inside those mirrors (by
callback, or ``async for`` over ``watch``), dispatches actions with their ack
or reject, and reconnects by itself with exponential backoff and jitter,
resuming subscriptions with ``since`` in the same epoch and starting them over
in a new one. Given several URLs (the nodes of a cluster), it fails over to
the next one whenever a connection ends.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping, Sequence
from typing import Literal

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.typing import Subprotocol

from .errors import StateSyncError
from .messages import (
    JSON, ClientMessage, ErrorMessage, HelloMessage, PatchMessage, Reading, RequestMessage,
    ServerMessage, SnapshotMessage, SubscribeMessage, WelcomeMessage, decode_server_message,
)
from .patch import apply_patch, parse_pointer, relative_tokens, value_at
from .subscription import Callback, EndCallback, Observer, Subscription
from .watch import LatestValue

#: The state of the client's connection; ``on_connection`` reports its changes.
ConnectionState = Literal["connecting", "open", "reconnecting", "closed"]

#: Server errors after which retrying cannot help (bad token, no hello).
_FATAL = {"unauthorized", "hello_required"}


def _split_urls(url: str | Sequence[str]) -> list[str]:
    """The URLs of ``url``: one, a list, or a comma-separated string; at least one."""
    parts = url.split(",") if isinstance(url, str) else list(url)
    urls = [part.strip() for part in parts if part.strip()]
    if not urls:
        raise ValueError("StateSyncClient needs at least one URL")
    return urls


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
        self.connection: ConnectionState = "closed"
        self.welcome: WelcomeMessage | None = None
        self.rev: int | None = None
        self.last_error: StateSyncError | None = None
        self._socket: ClientConnection | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopped = False
        # Why the client stopped (closed, or a fatal error): what later requests raise.
        self._ended: StateSyncError | None = None
        self._counter = 0
        # Action ids are "<prefix>-a<n>": the server de-duplicates on (clientId, id),
        # so a new instance given a saved client_id must not reuse an earlier
        # instance's ids (it would get that action's remembered outcome, and its
        # own action would never be applied). 12 random hex digits per instance.
        self.action_id_prefix = os.urandom(6).hex()
        self._subscriptions: dict[str, Subscription] = {}
        self._pending: dict[str, tuple[RequestMessage, asyncio.Future[Reading]]] = {}
        self._listeners: list[Callable[[ConnectionState], None]] = []
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

    async def connect(self, timeout: float = 10.0) -> WelcomeMessage:
        """Starts the connection (and its reconnects) and returns the first ``welcome``.

        Raises ``StateSyncError`` when the server refuses the session (``unauthorized``)
        or no session opens within ``timeout`` seconds (``timeout``).
        """
        self._stopped = False
        self._ended = None
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
        """Closes for good: no reconnect; pending requests fail with ``closed``, watches end."""
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

    def on_connection(self, callback: Callable[[ConnectionState], None]) -> Callable[[], None]:
        """Calls ``callback(state)`` now and on every change; returns a function that stops it."""
        self._listeners.append(callback)
        callback(self.connection)
        return lambda: self._listeners.remove(callback)

    # MARK: Reading and writing

    async def subscribe(self, path: str, callback: Callback | None = None) -> Subscription:
        """Subscribes to ``path`` and returns its mirror once the first snapshot is in.

        ``callback(value, rev)`` runs with the snapshot and after each patch.
        Raises ``StateSyncError`` (``invalid_path``, ``forbidden``, ``closed``).
        """
        subscription = self._open_subscription(path, implicit=False)
        if callback:
            subscription.callbacks.append(callback)
        await self._send_subscribe(subscription, resume=False)
        await subscription.first_snapshot()
        return subscription

    async def observe(self, path: str, callback: Callback) -> Callable[[], Awaitable[None]]:
        """Calls ``callback(value, rev)`` with the value at ``path`` now and whenever it changes.

        The value comes from the mirror of an open subscription containing ``path``
        (``/todos/0/title`` rides on a subscription to ``/todos``); without one, a
        subscription at ``path`` is opened, and closed with its last observer.
        Returns once the first value is in, with an async function that stops
        observing. Raises ``StateSyncError`` (``invalid_path``, ``forbidden``, ``closed``).
        """
        subscription, observer = await self._attach(path, callback)
        try:
            await subscription.first_snapshot()
        except BaseException:
            await self._detach(subscription, observer)
            raise
        return lambda: self._detach(subscription, observer)

    async def watch(self, path: str) -> AsyncGenerator[JSON, None]:
        """The value at ``path`` now and after each change, as an async iterator.

        A consumer slower than the changes gets the newest value, skipping
        the ones in between (memory stays constant). The iteration ends when
        the client closes (or the subscription it rides on is closed); breaking
        out of it stops observing (``contextlib.aclosing`` makes that
        immediate). Raises ``StateSyncError`` when the server refuses the path
        (``forbidden``, ``invalid_path``) or the session (``unauthorized``).
        """
        latest = LatestValue()
        try:
            subscription, observer = await self._attach(path, lambda value, _rev: latest.put(value), latest.end)
        except StateSyncError as error:
            if error.code == "closed":
                return  # a closed client has nothing more to show
            raise
        try:
            async for value in latest:
                yield value
        finally:
            await self._detach(subscription, observer)

    def peek(self, path: str) -> JSON:
        """The value at ``path`` in a mirror containing it, or None."""
        for subscription in self._subscriptions.values():
            relative = relative_tokens(subscription.path, path)
            if relative is not None and subscription.rev is not None:
                return value_at(subscription.value, relative)
        return None

    async def get(self, path: str) -> Reading:
        """One-shot read: ``{"rev": ..., "value": ...}``."""
        parse_pointer(path)
        self._counter += 1
        return await self._request({"type": "get", "id": f"g{self._counter}", "path": path})

    async def dispatch(self, action: Mapping[str, JSON]) -> int:
        """Sends an action and returns the revision of its ``ack`` (durable).

        Raises ``StateSyncError`` with the ``reject``'s code and message
        (``not_found``, ``invalid_action``, ``forbidden``, ...; its ``reply`` is
        the ``reject``). Made while disconnected, it is sent on reconnect with
        the same id (exactly-once). The id is ``"<action_id_prefix>-a<n>"``,
        unique across instances that share a ``client_id``.
        """
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise StateSyncError("invalid_action", f'an action is an object with a string "type", not {action!r}')
        self._counter += 1
        action_id = f"{self.action_id_prefix}-a{self._counter}"
        reply = await self._request({"type": "dispatch", "id": action_id, "action": dict(action)})
        return reply["rev"]

    # MARK: Internals

    def _set_connection(self, state: ConnectionState) -> None:
        if self.connection == state:
            return
        self.connection = state
        for listener in list(self._listeners):
            listener(state)

    def _hello(self) -> HelloMessage:
        hello: HelloMessage = {"type": "hello", "clientId": self.client_id}
        if self.token:
            hello["token"] = self.token
        if self.name:
            hello["name"] = self.name
        return hello

    async def _run(self) -> None:
        attempt = 0
        while not self._stopped:
            self._set_connection("connecting" if self.welcome is None and attempt == 0 else "reconnecting")
            try:
                async with connect(self.url, subprotocols=[Subprotocol("statesync.v1")], open_timeout=10) as socket:
                    self._socket = socket
                    await socket.send(json.dumps(self._hello()))
                    async for text in socket:
                        message = decode_server_message(text)
                        if message is None:
                            continue  # a message type of a later protocol version
                        if message["type"] == "welcome":
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

    async def _send(self, message: ClientMessage) -> None:
        socket = self._socket
        if socket is None or self.connection != "open":
            return
        try:
            await socket.send(json.dumps(message))
        except ConnectionClosed:
            pass  # re-sent after the reconnect

    async def _request(self, message: RequestMessage) -> Reading:
        if self._ended is not None:
            raise self._ended
        future: asyncio.Future[Reading] = asyncio.get_running_loop().create_future()
        self._pending[message["id"]] = (message, future)
        await self._send(message)
        return await future

    def _fail(self, error: StateSyncError) -> None:
        """The client stopped: pending requests raise ``error``, subscriptions end with it."""
        self._ended = error
        for _, future in self._pending.values():
            if not future.done():
                future.set_exception(error)
        self._pending.clear()
        for subscription in list(self._subscriptions.values()):
            subscription.end(error)

    def _open_subscription(self, path: str, *, implicit: bool) -> Subscription:
        parse_pointer(path)
        if self._ended is not None:
            raise self._ended
        self._counter += 1
        subscription = Subscription(self, f"s{self._counter}", path, implicit=implicit)
        self._subscriptions[subscription.id] = subscription
        return subscription

    async def _attach(self, path: str, callback: Callback, on_end: EndCallback | None = None) -> tuple[Subscription, Observer]:
        """An observer of ``path`` on the innermost open subscription containing it, or on a new one."""
        tokens = parse_pointer(path)
        owner: Subscription | None = None
        for subscription in self._subscriptions.values():
            if subscription.ended is None and relative_tokens(subscription.path, path) is not None:
                if owner is None or len(parse_pointer(owner.path)) < len(parse_pointer(subscription.path)):
                    owner = subscription
        if owner is None:
            owner = self._open_subscription(path, implicit=True)
            await self._send_subscribe(owner, resume=False)
        observer = Observer(tokens[len(parse_pointer(owner.path)):], callback, on_end)
        owner.observers.append(observer)
        if owner.rev is not None:
            observer.notify(owner.value, owner.rev)
        return owner, observer

    async def _detach(self, subscription: Subscription, observer: Observer) -> None:
        """Stops ``observer``; an implicit subscription closes with its last observer."""
        if observer in subscription.observers:
            subscription.observers.remove(observer)
        if subscription.implicit and not subscription.observers:
            await subscription.close()

    async def _send_subscribe(self, subscription: Subscription, resume: bool) -> None:
        message: SubscribeMessage = {"type": "subscribe", "id": subscription.id, "path": subscription.path}
        if resume and subscription.rev is not None:
            message["since"] = subscription.rev
        await self._send(message)

    async def _unsubscribe(self, subscription: Subscription) -> None:
        if self._subscriptions.pop(subscription.id, None) is not None:
            await self._send({"type": "unsubscribe", "id": subscription.id})
        subscription.end(StateSyncError("closed", f"the subscription to {subscription.path!r} was closed"))

    def _seen(self, rev: int) -> None:
        if self.rev is None or rev > self.rev:
            self.rev = rev

    async def _receive(self, message: ServerMessage) -> None:
        if message["type"] == "welcome":
            await self._on_welcome(message)
        elif message["type"] == "snapshot":
            self._on_snapshot(message)
        elif message["type"] == "patch":
            await self._on_patch(message)
        elif message["type"] == "ack" or message["type"] == "value":
            self._seen(message["rev"])
            pending = self._pending.pop(message["id"], None)
            if pending and not pending[1].done():
                pending[1].set_result({"rev": message["rev"], "value": message.get("value")})
        elif message["type"] == "reject":
            pending = self._pending.pop(message["id"], None)
            if pending and not pending[1].done():
                pending[1].set_exception(StateSyncError(message["code"], message["message"], message))
        elif message["type"] == "error":
            self._on_error(message)

    async def _on_welcome(self, message: WelcomeMessage) -> None:
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

    def _on_snapshot(self, message: SnapshotMessage) -> None:
        self._seen(message["rev"])
        subscription = self._subscriptions.get(message["id"])
        if subscription is not None:
            subscription.apply(message["value"], message["rev"])

    async def _on_patch(self, message: PatchMessage) -> None:
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
            value = apply_patch(subscription.value, message["ops"])
        except StateSyncError:
            subscription.rev = None
            await self._send_subscribe(subscription, resume=False)
            return
        if message["ops"]:
            subscription.apply(value, message["rev"])
        else:
            subscription.rev = message["rev"]

    def _on_error(self, message: ErrorMessage) -> None:
        error = StateSyncError(message["code"], message["message"], message)
        related = message.get("id")
        subscription = self._subscriptions.pop(related, None) if related is not None else None
        if subscription is not None:
            subscription.end(error)
            return
        pending = self._pending.pop(related, None) if related is not None else None
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
