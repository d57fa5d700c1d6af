"""The one error type of the client."""

from __future__ import annotations

from .messages import ErrorMessage, RejectMessage


class StateSyncError(Exception):
    """An error from the server (``reject``, ``error``) or the client, with its protocol ``code``.

    ``code`` is the protocol's code (``not_found``, ``invalid_action``, ``forbidden``,
    ``unauthorized``, ...) or a client one (``closed``, ``timeout``, ``bad_patch``,
    ``invalid_path`` for a malformed pointer); ``detail`` is the human-readable
    message; ``reply`` is the server's ``reject`` or ``error`` message, None for
    an error of the client.
    """

    def __init__(self, code: str, message: str, reply: RejectMessage | ErrorMessage | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.detail = message
        self.reply = reply
