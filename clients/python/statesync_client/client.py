"""An asyncio StateSync client (docs/PROTOCOL.md, statesync.v1) on ``websockets``.

It keeps a mirror of each subscription (snapshot, then RFC 6902 patches with
``base`` checks), lets callers observe focused paths inside those mirrors (by
callback, or ``async for`` over ``watch``), dispatches actions with their ack
or reject, and reconnects by itself with exponential backoff and jitter,
resuming subscriptions with ``since`` in the same epoch and starting them over
in a new one. ``client.store(name)`` works with another store of the server
over the same connection: ids are per store, and each store resumes on its
own (``since`` within its own epoch). Given several URLs (the nodes of a cluster), it fails over to
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
    JSON, AuthMessage, AuthorizedMessage, ClientMessage, DispatchMessage, ErrorMessage, GetMessage, HelloMessage,
    PatchMessage, Reading, RequestMessage, Role, ServerMessage, SnapshotMessage, SubscribeMessage,
    UnsubscribedMessage, UnsubscribeMessage, ValueMessage, WelcomeMessage, decode_server_message,
)
from .patch import apply_patch, parse_pointer, relative_tokens, value_at
from .store import MAIN, Store, check_store_name
from .subscription import Callback, EndCallback, Observer, Subscription
from .watch import LatestValue

#: The state of the client's connection; ``on_connection`` reports its changes.
ConnectionState = Literal["connecting", "open", "reconnecting", "closed"]

#: Server errors after which retrying cannot help (bad token, no hello).
_FATAL = {"unauthorized", "hello_required", "upgrade_required"}


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
            team = client.store("team-42")      # another store, same connection
            await team.dispatch({"type": "addTodo", "title": "Bread"})
            await client.refresh_token(new_jwt)  # a new token, same session
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
        schema_version: int | None = None,
    ) -> None:
        self.urls = _split_urls(url)
        self._url_index = 0
        #: The token ``hello`` sends: the one given until ``refresh_token`` replaces it.
        self.token = token
        self.name = name
        self.client_id = client_id or f"c-{os.urandom(8).hex()}"
        self.initial_backoff = initial_backoff
        self.max_backoff = max_backoff
        if schema_version is not None and (
                isinstance(schema_version, bool) or not isinstance(schema_version, int) or not 1 <= schema_version <= 1_000_000):
            raise ValueError(f"schema_version must be an integer from 1 to 1000000, not {schema_version!r}")
        #: The app schema version ``hello`` declares: a server that needs a newer one
        #: stops the client with ``upgrade_required``; a node older than it
        #: (``schema_too_new``, a rolling upgrade) is left for the next URL.
        self.schema_version = schema_version
        self.connection: ConnectionState = "closed"
        self.welcome: WelcomeMessage | None = None
        #: The session's role in ``main``: the welcome's, then each refreshed token's;
        #: None before the first welcome and when the token grants none there.
        self.role: Role | None = None
        self.last_error: StateSyncError | None = None
        self._socket: ClientConnection | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopped = False
        # Why the client stopped (closed, or a fatal error): what later requests raise.
        self._ended: StateSyncError | None = None
        # Action ids are "<prefix>-a<n>": the server de-duplicates on (clientId, id),
        # so a new instance given a saved client_id must not reuse an earlier
        # instance's ids (it would get that action's remembered outcome, and its
        # own action would never be applied). 12 random hex digits per instance.
        self.action_id_prefix = os.urandom(6).hex()
        self._main = Store(self, MAIN)
        self._stores: dict[str, Store] = {MAIN: self._main}
        # Unanswered requests by (store, id): ids are per store.
        self._pending: dict[tuple[str, str], tuple[RequestMessage, asyncio.Future[Reading]]] = {}
        # Unanswered dispatches sent on some connection; those sent on a connection
        # that ended are in doubt (maybe applied): `unavailable` is not their outcome.
        self._ever_sent: set[tuple[str, str]] = set()
        self._in_doubt: set[tuple[str, str]] = set()
        self._refused_in_doubt: set[tuple[str, str]] = set()  # to send again
        self._in_doubt_retry: asyncio.Task[None] | None = None
        self._in_doubt_rounds = 0  # re-send rounds in a row (their backoff)
        self._listeners: list[Callable[[ConnectionState], None]] = []
        self._welcomed: asyncio.Event = asyncio.Event()
        # refresh_token calls not answered yet, by auth id: (their number, token, future).
        self._refreshes: dict[str, tuple[int, str, asyncio.Future[None]]] = {}
        self._refresh_count = 0  # refresh_token calls so far
        self._hello_count = 0  # the refreshes the current connection's hello already carries
        self._hello_token = token  # the token that hello sent
        self._token_in_force = token  # what a refused refresh falls back to

    @property
    def rev(self) -> int | None:
        """The newest revision of ``main`` seen (of its current epoch), or None."""
        return self._main.rev

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
        if self._in_doubt_retry is not None:
            self._in_doubt_retry.cancel()
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None
        self._fail(StateSyncError("closed", "the client was closed"))
        self._set_connection("closed")

    async def refresh_token(self, token: str) -> None:
        """Replaces the session's token in place (``auth``), e.g. a JWT refreshed before it expires.

        Subscriptions, watches and pending requests stay (a subscription the new
        token no longer grants ends with ``forbidden``); ``role`` becomes the new
        token's role in ``main``; later reconnects send it in ``hello``. Made
        while disconnected, it is kept for the next ``hello`` and returns once
        that session is welcomed. Raises ``StateSyncError`` ``unauthorized`` when
        the server refuses the token (the connection goes on under the token in
        force, which ``token`` is again), or ``closed``; ``ValueError`` for an
        empty token.

        Example::

            await client.refresh_token(await fetch_jwt())
        """
        if not isinstance(token, str) or not token:
            raise ValueError(f"refresh_token needs a non-empty token, not {token!r}")
        if self._ended is not None:
            raise self._ended
        self.token = token
        self._refresh_count += 1
        auth_id = f"t{self._refresh_count}"
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._refreshes[auth_id] = (self._refresh_count, token, future)
        await self._send(AuthMessage(type="auth", id=auth_id, token=token))
        await future

    def on_connection(self, callback: Callable[[ConnectionState], None]) -> Callable[[], None]:
        """Calls ``callback(state)`` now and on every change; returns a function that stops it."""
        self._listeners.append(callback)
        callback(self.connection)
        return lambda: self._listeners.remove(callback)

    # MARK: Reading and writing (the store main; client.store(name) for others)

    def store(self, name: str) -> Store:
        """The store ``name`` of the server over this connection (the same object per name).

        It has the same ``subscribe``, ``observe``, ``watch``, ``peek``, ``get`` and
        ``dispatch`` as the client, whose own are the store ``main``'s. Raises
        ``StateSyncError`` ``invalid_store`` for a name that is not 1 to 64 of
        a-z 0-9 . _ -, starting with a letter or a digit (``TypeError`` for a
        name that is not a ``str``).
        """
        check_store_name(name)
        store = self._stores.get(name)
        if store is None:
            store = self._stores[name] = Store(self, name)
        return store

    async def subscribe(self, path: str, callback: Callback | None = None) -> Subscription:
        """Subscribes to ``path`` and returns its mirror once the first snapshot is in.

        ``callback(value, rev)`` runs with the snapshot and after each patch.
        Raises ``StateSyncError`` (``invalid_path``, ``forbidden``, ``closed``).
        """
        return await self._subscribe_in(self._main, path, callback)

    async def observe(self, path: str, callback: Callback) -> Callable[[], Awaitable[None]]:
        """Calls ``callback(value, rev)`` with the value at ``path`` now and whenever it changes.

        The value comes from the mirror of an open subscription containing ``path``
        (``/todos/0/title`` rides on a subscription to ``/todos``); without one, a
        subscription at ``path`` is opened, and closed with its last observer.
        Returns once the first value is in, with an async function that stops
        observing. Raises ``StateSyncError`` (``invalid_path``, ``forbidden``, ``closed``).
        """
        return await self._observe_in(self._main, path, callback)

    def watch(self, path: str) -> AsyncGenerator[JSON, None]:
        """The value at ``path`` now and after each change, as an async iterator.

        A consumer slower than the changes gets the newest value, skipping
        the ones in between (memory stays constant). The iteration ends when
        the client closes (or the subscription it rides on is closed); breaking
        out of it stops observing (``contextlib.aclosing`` makes that
        immediate). Raises ``StateSyncError`` when the server refuses the path
        (``forbidden``, ``invalid_path``) or the session (``unauthorized``).
        """
        return self._watch_in(self._main, path)

    def peek(self, path: str) -> JSON:
        """The value at ``path`` in a mirror containing it, or None."""
        return self._peek_in(self._main, path)

    async def get(self, path: str) -> Reading:
        """One-shot read: ``{"rev": ..., "value": ...}``."""
        return await self._get_in(self._main, path)

    async def dispatch(self, action: Mapping[str, JSON]) -> int:
        """Sends an action and returns the revision of its ``ack`` (durable).

        Raises ``StateSyncError`` with the ``reject``'s code and message
        (``not_found``, ``invalid_action``, ``forbidden``, ...; its ``reply`` is
        the ``reject``). Made while disconnected, it is sent on reconnect with
        the same id (exactly-once). The id is ``"<action_id_prefix>-a<n>"``,
        unique across instances that share a ``client_id``. Sent on a connection
        that ended unanswered, it may have been applied: an ``unavailable`` refusal
        then is not its outcome, and it is sent again (with the backoff) until
        another answer comes.
        """
        return await self._dispatch_in(self._main, action)

    # MARK: The API in one store

    async def _subscribe_in(self, store: Store, path: str, callback: Callback | None) -> Subscription:
        subscription = self._open_subscription(store, path, implicit=False)
        if callback:
            subscription.callbacks.append(callback)
        await self._send_subscribe(store, subscription, resume=False)
        await subscription.first_snapshot()
        return subscription

    async def _observe_in(self, store: Store, path: str, callback: Callback) -> Callable[[], Awaitable[None]]:
        subscription, observer = await self._attach(store, path, callback)
        try:
            await subscription.first_snapshot()
        except BaseException:
            await self._detach(subscription, observer)
            raise
        return lambda: self._detach(subscription, observer)

    async def _watch_in(self, store: Store, path: str) -> AsyncGenerator[JSON, None]:
        latest = LatestValue()
        try:
            subscription, observer = await self._attach(store, path, lambda value, _rev: latest.put(value), latest.end)
        except StateSyncError as error:
            if error.code == "closed":
                return  # a closed client has nothing more to show
            raise
        try:
            async for value in latest:
                yield value
        finally:
            await self._detach(subscription, observer)

    def _peek_in(self, store: Store, path: str) -> JSON:
        for subscription in store._subscriptions.values():
            relative = relative_tokens(subscription.path, path)
            if relative is not None and subscription.rev is not None:
                return value_at(subscription.value, relative)
        return None

    async def _get_in(self, store: Store, path: str) -> Reading:
        parse_pointer(path)
        message: GetMessage = {"type": "get", "id": store._next_id("g"), "path": path}
        if store.name != MAIN:
            message["store"] = store.name
        return await self._request(store, message)

    async def _dispatch_in(self, store: Store, action: Mapping[str, JSON]) -> int:
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise StateSyncError("invalid_action", f'an action is an object with a string "type", not {action!r}')
        message: DispatchMessage = {"type": "dispatch", "id": store._next_id(f"{self.action_id_prefix}-a"), "action": dict(action)}
        if store.name != MAIN:
            message["store"] = store.name
        reply = await self._request(store, message)
        return reply["rev"]

    # MARK: Internals

    def _set_connection(self, state: ConnectionState) -> None:
        if self.connection == state:
            return
        self.connection = state
        for listener in list(self._listeners):
            listener(state)

    def _hello(self) -> HelloMessage:
        self._hello_count, self._hello_token = self._refresh_count, self.token
        hello: HelloMessage = {"type": "hello", "clientId": self.client_id}
        if self.token:
            hello["token"] = self.token
        if self.name:
            hello["name"] = self.name
        if self.schema_version is not None:
            hello["schemaVersion"] = self.schema_version
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

    async def _send(self, message: ClientMessage) -> bool:
        """Writes ``message`` on the open connection; False while offline."""
        socket = self._socket
        if socket is None or self.connection != "open":
            return False
        try:
            await socket.send(json.dumps(message))
        except ConnectionClosed:
            return False  # re-sent after the reconnect
        return True

    async def _send_request(self, key: tuple[str, str], request: RequestMessage) -> bool:
        """Sends a pending request, remembering a dispatch as sent (maybe applied)."""
        sent = await self._send(request)
        if sent and request["type"] == "dispatch":
            self._ever_sent.add(key)
        return sent

    def _settled(self, key: tuple[str, str]) -> None:
        """Request ``key`` was answered."""
        self._ever_sent.discard(key)
        self._in_doubt.discard(key)
        self._refused_in_doubt.discard(key)
        if not self._in_doubt:
            self._in_doubt_rounds = 0

    def _retry_in_doubt(self, key: tuple[str, str]) -> None:
        """An in-doubt dispatch was refused ``unavailable``: that says only that this
        send was not applied, while the earlier one may have been. It stays pending
        and is sent again after a backoff, until ``ack`` or another ``reject``."""
        self._refused_in_doubt.add(key)
        if self._in_doubt_retry is not None:
            return  # the planned round sends it too
        self._in_doubt_rounds += 1
        ceiling = min(self.max_backoff, self.initial_backoff * 2 ** (self._in_doubt_rounds - 1))
        delay = ceiling * (0.5 + random.random() * 0.5)
        self._in_doubt_retry = asyncio.get_running_loop().create_task(self._resend_in_doubt(delay))

    async def _resend_in_doubt(self, delay: float) -> None:
        await asyncio.sleep(delay)
        self._in_doubt_retry = None
        for key in list(self._refused_in_doubt):
            pending = self._pending.get(key)
            if pending is None or await self._send_request(key, pending[0]):
                self._refused_in_doubt.discard(key)

    async def _request(self, store: Store, message: RequestMessage) -> Reading:
        if self._ended is not None:
            raise self._ended
        future: asyncio.Future[Reading] = asyncio.get_running_loop().create_future()
        key = (store.name, message["id"])
        self._pending[key] = (message, future)
        await self._send_request(key, message)
        return await future

    def _fail(self, error: StateSyncError) -> None:
        """The client stopped: pending requests raise ``error``, subscriptions end with it."""
        self._ended = error
        for _, future in self._pending.values():
            if not future.done():
                future.set_exception(error)
        self._pending.clear()
        for _, _, refresh in self._refreshes.values():
            if not refresh.done():
                refresh.set_exception(error)
        self._refreshes.clear()
        for store in self._stores.values():
            for subscription in list(store._subscriptions.values()):
                subscription.end(error)

    def _open_subscription(self, store: Store, path: str, *, implicit: bool) -> Subscription:
        parse_pointer(path)
        if self._ended is not None:
            raise self._ended
        subscription = Subscription(self, store._next_id("s"), path, implicit=implicit, store=store.name)
        store._subscriptions[subscription.id] = subscription
        return subscription

    async def _attach(
        self, store: Store, path: str, callback: Callback, on_end: EndCallback | None = None,
    ) -> tuple[Subscription, Observer]:
        """An observer of ``path`` on the innermost open subscription of ``store`` containing it, or on a new one."""
        tokens = parse_pointer(path)
        owner: Subscription | None = None
        for subscription in store._subscriptions.values():
            if subscription.ended is None and relative_tokens(subscription.path, path) is not None:
                if owner is None or len(parse_pointer(owner.path)) < len(parse_pointer(subscription.path)):
                    owner = subscription
        if owner is None:
            owner = self._open_subscription(store, path, implicit=True)
            await self._send_subscribe(store, owner, resume=False)
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

    async def _send_subscribe(self, store: Store, subscription: Subscription, resume: bool) -> None:
        message: SubscribeMessage = {"type": "subscribe", "id": subscription.id, "path": subscription.path}
        if store.name != MAIN:
            message["store"] = store.name
        if resume and subscription.rev is not None:
            message["since"] = subscription.rev
        await self._send(message)

    async def _unsubscribe(self, subscription: Subscription) -> None:
        store = self._stores.get(subscription.store)
        if store is not None and store._subscriptions.get(subscription.id) is subscription:
            del store._subscriptions[subscription.id]
            message: UnsubscribeMessage = {"type": "unsubscribe", "id": subscription.id}
            if store.name != MAIN:
                message["store"] = store.name
            await self._send(message)
        subscription.end(StateSyncError("closed", f"the subscription to {subscription.path!r} was closed"))

    @staticmethod
    def _seen(store: Store, rev: int) -> None:
        if store._rev is None or rev > store._rev:
            store._rev = rev

    async def _receive(self, message: ServerMessage) -> None:
        if message["type"] == "welcome":
            await self._on_welcome(message)
            return
        if message["type"] == "authorized":
            self._on_authorized(message)
            return
        if message["type"] == "error" and message.get("id") in self._refreshes and "store" not in message:
            self._on_refused(message)
            return
        # Messages about a store other than main name it; ids are per store.
        store = self._stores.get(message.get("store") or MAIN)
        if store is None:
            return  # a store this client never used
        if message["type"] == "snapshot":
            await self._on_snapshot(store, message)
        elif message["type"] == "patch":
            await self._on_patch(store, message)
        elif message["type"] == "value" and store._probe is not None and store._probe == message["id"]:
            await self._on_probe(store, message)
        elif message["type"] == "ack" or message["type"] == "value":
            if message["type"] == "value":
                await self._learn_epoch(store, message.get("epoch"), None)
            self._seen(store, message["rev"])
            pending = self._pending.pop((store.name, message["id"]), None)
            self._settled((store.name, message["id"]))
            if pending and not pending[1].done():
                pending[1].set_result({"rev": message["rev"], "value": message.get("value")})
        elif message["type"] == "reject":
            key = (store.name, message["id"])
            if message["code"] == "unavailable" and key in self._in_doubt and key in self._pending:
                self._retry_in_doubt(key)
                return
            pending = self._pending.pop(key, None)
            self._settled(key)
            if pending and not pending[1].done():
                pending[1].set_exception(StateSyncError(message["code"], message["message"], message))
        elif message["type"] == "error":
            await self._on_error(store, message)
        elif message["type"] == "unsubscribed":
            self._on_unsubscribed(store, message)

    async def _on_welcome(self, message: WelcomeMessage) -> None:
        previous = self.welcome
        main = self._main
        self.welcome = message
        self.role = message.get("role")
        same_history = previous is not None and previous["epoch"] == message["epoch"]
        if previous is not None and not same_history:
            main._rev = message["rev"]  # revisions compare only within one epoch
        main._epoch = message["epoch"]
        self._seen(main, message["rev"])
        self._set_connection("open")
        for subscription in list(main._subscriptions.values()):
            if not same_history:
                subscription.rev = None
            await self._send_subscribe(main, subscription, resume=same_history)
        for store in list(self._stores.values()):
            if store is not main:
                await self._resume(store)
        self._in_doubt |= self._ever_sent
        self._refused_in_doubt.clear()  # all sent again now
        for key, (request, _) in list(self._pending.items()):
            await self._send_request(key, request)
        await self._refreshes_welcomed()
        self._welcomed.set()

    async def _refreshes_welcomed(self) -> None:
        """A session was welcomed: its ``hello`` carried the token of the refreshes made
        before it was sent (the newest one's), which are done; those made since are
        sent as ``auth`` now."""
        self._token_in_force = self._hello_token
        for auth_id, (number, token, future) in list(self._refreshes.items()):
            if number > self._hello_count:
                await self._send(AuthMessage(type="auth", id=auth_id, token=token))
                continue
            del self._refreshes[auth_id]
            if not future.done():
                future.set_result(None)

    def _on_authorized(self, message: AuthorizedMessage) -> None:
        """The server put the token of ``auth`` ``message["id"]`` in force."""
        refresh = self._refreshes.pop(message["id"], None)
        if refresh is None:
            return
        self._token_in_force = refresh[1]
        self.role = message.get("role")
        if not refresh[2].done():
            refresh[2].set_result(None)

    def _on_refused(self, message: ErrorMessage) -> None:
        """The server refused the token of an ``auth``: the one in force stays, for later hellos too."""
        number, _, future = self._refreshes.pop(message.get("id", ""))
        if number == self._refresh_count:
            self.token = self._token_in_force
        if not future.done():
            future.set_exception(StateSyncError(message["code"], message["message"], message))

    def _on_unsubscribed(self, store: Store, message: UnsubscribedMessage) -> None:
        """The server ended a subscription the client did not close (a refreshed token
        no longer grants it): it is gone, and ends with ``forbidden``."""
        subscription = store._subscriptions.pop(message["id"], None)
        if subscription is not None:
            subscription.end(StateSyncError(
                "forbidden",
                f"the server ended the subscription to {subscription.path!r}: the session's token no longer grants it"))

    async def _resume(self, store: Store) -> None:
        """Resumes a store other than main on a new connection.

        ``welcome`` tells main's epoch only, and ``since`` compares only within
        the store's epoch: when there is a revision to resume from, a ``get``
        of one of its paths asks the epoch first (``_on_probe``); otherwise its
        subscriptions start over at once.
        """
        store._probe, store._resuming = None, []
        subscriptions = list(store._subscriptions.values())
        resumable = next((s for s in subscriptions if s.rev is not None), None)
        if store._epoch is None or resumable is None:
            for subscription in subscriptions:
                await self._send_subscribe(store, subscription, resume=False)
            return
        store._probe, store._resuming = store._next_id("e"), subscriptions
        await self._send({"type": "get", "store": store.name, "id": store._probe, "path": resumable.path})

    async def _on_probe(self, store: Store, message: ValueMessage) -> None:
        """The answer to ``_resume``'s ``get``: resume with ``since`` in the same epoch, else start over."""
        epoch = message.get("epoch")
        same_history = epoch is not None and epoch == store._epoch
        await self._finish_resume(store, same_history)
        if not same_history and epoch is not None:
            store._epoch = epoch
        self._seen(store, message["rev"])

    async def _finish_resume(self, store: Store, same_history: bool) -> None:
        resuming, store._probe, store._resuming = store._resuming, None, []
        if not same_history:
            store._rev = None
        for subscription in resuming:
            if store._subscriptions.get(subscription.id) is not subscription:
                continue  # closed meanwhile
            if not same_history:
                subscription.rev = None
            await self._send_subscribe(store, subscription, resume=same_history)

    async def _learn_epoch(self, store: Store, epoch: str | None, current: Subscription | None) -> None:
        """A store's epoch, as its snapshot or value tells (main's comes in ``welcome``).

        A different one than before is a new history of that store: its
        revisions so far mean nothing, so its other subscriptions start over
        (``current``, the one the message is about, has its fresh value).
        """
        if store.name == MAIN or epoch is None or store._epoch == epoch:
            return
        changed = store._epoch is not None
        store._epoch = epoch
        if not changed:
            return
        store._rev = None
        for subscription in list(store._subscriptions.values()):
            if subscription is current or subscription.rev is None:
                continue
            subscription.rev = None
            await self._send_subscribe(store, subscription, resume=False)

    async def _on_snapshot(self, store: Store, message: SnapshotMessage) -> None:
        subscription = store._subscriptions.get(message["id"])
        await self._learn_epoch(store, message.get("epoch"), subscription)
        self._seen(store, message["rev"])
        if subscription is not None:
            subscription.apply(message["value"], message["rev"])

    async def _on_patch(self, store: Store, message: PatchMessage) -> None:
        self._seen(store, message["rev"])
        subscription = store._subscriptions.get(message["id"])
        if subscription is None:
            return
        if subscription.rev != message["base"]:
            # A gap: something was missed. Start this subscription over.
            subscription.rev = None
            await self._send_subscribe(store, subscription, resume=False)
            return
        try:
            value = apply_patch(subscription.value, message["ops"])
        except StateSyncError:
            subscription.rev = None
            await self._send_subscribe(store, subscription, resume=False)
            return
        if message["ops"]:
            subscription.apply(value, message["rev"])
        else:
            subscription.rev = message["rev"]

    async def _on_error(self, store: Store, message: ErrorMessage) -> None:
        error = StateSyncError(message["code"], message["message"], message)
        related = message.get("id")
        if related is not None:
            target = store if "store" in message else self._store_of_error(related)
            if await self._error_for(target, related, error):
                return
        self.last_error = error
        if error.code in _FATAL:
            self._stopped = True
            self._fail(error)
            self._set_connection("closed")
            self._welcomed.set()

    def _store_of_error(self, related: str) -> Store:
        """The store an error without ``store`` is about.

        The protocol says main; but a server may leave ``store`` out of its
        errors about other stores (this one's ``forbidden``,
        ``too_many_subscriptions``, ``invalid_path``, ``bad_request`` do), so it
        goes to the store awaiting an answer with this id (a request, a
        subscription before its snapshot, a resume probe): main first, else
        the only other one, else main.
        """
        if self._awaits(self._main, related):
            return self._main
        waiting = [store for store in self._stores.values() if store is not self._main and self._awaits(store, related)]
        return waiting[0] if len(waiting) == 1 else self._main

    def _awaits(self, store: Store, related: str) -> bool:
        """Whether ``store`` awaits an answer with the id ``related``."""
        if store._probe == related or (store.name, related) in self._pending:
            return True
        subscription = store._subscriptions.get(related)
        return subscription is not None and subscription.rev is None

    async def _error_for(self, store: Store, related: str, error: StateSyncError) -> bool:
        """Hands ``error`` to what of ``store`` has the id ``related``; False when nothing has it."""
        if store._probe == related:
            await self._finish_resume(store, False)  # the epoch is not known: start over
            return True
        subscription = store._subscriptions.pop(related, None)
        if subscription is not None:
            subscription.end(error)
            return True
        pending = self._pending.pop((store.name, related), None)
        if pending is not None:
            self._settled((store.name, related))
            if not pending[1].done():
                pending[1].set_exception(error)
            return True
        return False
