"""StateSync thin client for Python: mirror, observe, watch, dispatch, reconnect and resume.

See clients/python/README.md and docs/PROTOCOL.md. The package is typed (PEP 561).
"""

from .client import ConnectionState, StateSyncClient
from .errors import StateSyncError
from .messages import (
    JSON, AckMessage, AuthMessage, AuthorizedMessage, ClientMessage, DispatchMessage, ErrorMessage, GetMessage,
    HelloMessage, PatchMessage, PatchOperation, Reading, RejectMessage, Role, ServerMessage, SnapshotMessage,
    StoreName, SubscribeMessage, UnsubscribedMessage, UnsubscribeMessage, ValueMessage, WelcomeMessage,
)
from .patch import apply_patch, format_pointer, parse_pointer, value_at
from .store import Store
from .subscription import Callback, Subscription

__all__ = [
    "StateSyncClient", "Store", "Subscription", "StateSyncError", "ConnectionState", "Callback",
    "apply_patch", "parse_pointer", "format_pointer", "value_at",
    "JSON", "Role", "StoreName", "Reading", "ClientMessage", "ServerMessage",
    "HelloMessage", "SubscribeMessage", "UnsubscribeMessage", "GetMessage", "DispatchMessage", "AuthMessage",
    "WelcomeMessage", "AuthorizedMessage", "SnapshotMessage", "PatchMessage", "PatchOperation", "UnsubscribedMessage",
    "ValueMessage", "AckMessage", "RejectMessage", "ErrorMessage",
]
