"""The one error type of the client."""

from __future__ import annotations


class StateSyncError(Exception):
    """An error from the server (``reject``, ``error``) or the client, with its protocol ``code``.

    ``code`` is the protocol's code (``not_found``, ``invalid_action``, ``forbidden``,
    ``unauthorized``, ...) or a client one (``closed``, ``bad_patch``); ``detail``
    is the human-readable message.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.detail = message
