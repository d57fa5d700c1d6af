"""The messages of the StateSync protocol (docs/PROTOCOL.md, statesync.v1) as TypedDicts.

They describe the JSON objects on the wire, so code that reads them (the
client, and users given a ``welcome``, a ``reject`` or an ``error``) is checked
by mypy. Optional fields live in a ``total=False`` base (Python 3.10 has no
``NotRequired``).
"""

from __future__ import annotations

import json
from typing import Any, Literal, TypedDict, cast

#: A decoded JSON value (object, array, string, number, boolean or None). It is
#: ``Any`` so that callers can index and compare state without casts.
JSON = Any

#: A role of a session, weakest first.
Role = Literal["reader", "writer", "admin"]

#: A store's name: 1 to 64 characters of a-z, 0-9, ".", "_", "-", starting with
#: a letter or a digit. A message without ``store`` is about the store ``main``.
StoreName = str


class _StoreField(TypedDict, total=False):
    #: The store the message is about; absent for ``main``.
    store: StoreName

# MARK: Client to server


class _HelloFields(TypedDict, total=False):
    clientId: str
    token: str
    name: str
    schemaVersion: int


class HelloMessage(_HelloFields):
    """The first message of a session: who the client is and its token."""

    type: Literal["hello"]


class _SubscribeFields(_StoreField, total=False):
    since: int


class SubscribeMessage(_SubscribeFields):
    """Starts (or, with ``since``, resumes) a subscription to ``path``."""

    type: Literal["subscribe"]
    id: str
    path: str


class UnsubscribeMessage(_StoreField):
    """Ends the subscription ``id``."""

    type: Literal["unsubscribe"]
    id: str


class GetMessage(_StoreField):
    """A one-shot read of ``path``, answered by a ``value``."""

    type: Literal["get"]
    id: str
    path: str


class DispatchMessage(_StoreField):
    """An action (an object with a string ``type``), answered by an ``ack`` or a ``reject``.

    Action ids are per store: the same id in two stores is two actions."""

    type: Literal["dispatch"]
    id: str
    action: dict[str, JSON]


class AuthMessage(TypedDict):
    """Replaces the session's token in place, answered by ``authorized`` or an ``error``
    ``unauthorized`` (the token in force then stays)."""

    type: Literal["auth"]
    id: str
    token: str


#: A request the client keeps until it is answered, and re-sends after a reconnect.
RequestMessage = GetMessage | DispatchMessage
ClientMessage = HelloMessage | SubscribeMessage | UnsubscribeMessage | GetMessage | DispatchMessage | AuthMessage

# MARK: Server to client


class _RoleField(TypedDict, total=False):
    #: The session's role in ``main``; absent when its token grants none there.
    role: Role


class WelcomeMessage(_RoleField):
    """The server's answer to ``hello``: the session, the history (``epoch``) of the
    store ``main`` and its latest ``rev``."""

    type: Literal["welcome"]
    session: str
    epoch: str
    rev: int
    server: str


class _AuthorizedFields(_RoleField, total=False):
    #: The new token's expiry (``exp``), in seconds since 1970; absent when it does not expire.
    expires: int


class AuthorizedMessage(_AuthorizedFields):
    """The answer to ``auth``: the new token is in force, with ``role`` in ``main``."""

    type: Literal["authorized"]
    id: str


class _EpochFields(_StoreField, total=False):
    #: The store's epoch, for a store other than ``main`` (main's is in ``welcome``).
    epoch: str


class SnapshotMessage(_EpochFields):
    """The whole value at a subscription's path (None when nothing is there) at ``rev``."""

    type: Literal["snapshot"]
    id: str
    rev: int
    value: JSON


_PatchOperationFields = TypedDict("_PatchOperationFields", {"value": JSON, "from": str}, total=False)


class PatchOperation(_PatchOperationFields):
    """One RFC 6902 operation; ``path`` (and ``from``) relative to the subscription's path."""

    op: Literal["add", "remove", "replace", "move", "copy", "test"]
    path: str


class PatchMessage(_StoreField):
    """The changes of a subscription's value from revision ``base`` to ``rev``."""

    type: Literal["patch"]
    id: str
    base: int
    rev: int
    ops: list[PatchOperation]


class UnsubscribedMessage(_StoreField):
    """The server's confirmation of ``unsubscribe``, or the end of a subscription a
    refreshed token no longer grants."""

    type: Literal["unsubscribed"]
    id: str


class ValueMessage(_EpochFields):
    """The answer to ``get``: the value at its path at ``rev``."""

    type: Literal["value"]
    id: str
    rev: int
    value: JSON


class AckMessage(_StoreField):
    """A dispatch applied at ``rev`` and durably stored."""

    type: Literal["ack"]
    id: str
    rev: int


class RejectMessage(_StoreField):
    """A dispatch refused (the state did not change), with its ``code`` and ``message``."""

    type: Literal["reject"]
    id: str
    code: str
    message: str


class _ErrorFields(_StoreField, total=False):
    id: str


class ErrorMessage(_ErrorFields):
    """A protocol error, about the message with ``id`` when it had one."""

    type: Literal["error"]
    code: str
    message: str


ServerMessage = (
    WelcomeMessage | AuthorizedMessage | SnapshotMessage | PatchMessage | UnsubscribedMessage
    | ValueMessage | AckMessage | RejectMessage | ErrorMessage
)

_SERVER_TYPES = frozenset({
    "welcome", "authorized", "snapshot", "patch", "unsubscribed", "value", "ack", "reject", "error",
})


def decode_server_message(text: str | bytes) -> ServerMessage | None:
    """The server message in ``text``, or None for one of a type this client does not know.

    Raises ``json.JSONDecodeError`` when ``text`` is not JSON.
    """
    message = json.loads(text)
    if not isinstance(message, dict) or message.get("type") not in _SERVER_TYPES:
        return None
    return cast(ServerMessage, message)


# MARK: Client API


class Reading(TypedDict):
    """What ``get`` returns: the value at a path and the revision it was read at."""

    rev: int
    value: JSON
