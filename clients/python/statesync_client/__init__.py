"""StateSync thin client for Python: mirror, observe, dispatch, reconnect and resume.

See clients/python/README.md and docs/PROTOCOL.md.
"""

from .client import StateSyncClient, Subscription
from .errors import StateSyncError
from .patch import apply_patch, format_pointer, parse_pointer, value_at

__all__ = ["StateSyncClient", "Subscription", "StateSyncError", "apply_patch", "parse_pointer", "format_pointer", "value_at"]
