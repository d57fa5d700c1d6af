"""JSON Pointer (RFC 6901) and JSON Patch (RFC 6902) on plain Python values.

``apply_patch`` never changes its input: it returns a new document that shares
every container off the patched paths, so a failing patch leaves the mirror
as it was and observers of untouched slices see the same objects.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .errors import StateSyncError
from .messages import JSON, PatchOperation

_INDEX = re.compile(r"^(0|[1-9][0-9]*)$")
_MISSING = object()


def parse_pointer(pointer: str) -> list[str]:
    """The reference tokens of ``pointer``; raises ``invalid_path`` on a malformed one."""
    if pointer == "":
        return []
    if not isinstance(pointer, str) or not pointer.startswith("/"):
        raise StateSyncError("invalid_path", f'a JSON Pointer is "" or starts with "/": {pointer!r}')
    tokens = []
    for token in pointer[1:].split("/"):
        if re.search(r"~[^01]|~$", token):
            raise StateSyncError("invalid_path", f"bad escape in {pointer!r}")
        tokens.append(token.replace("~1", "/").replace("~0", "~"))
    return tokens


def format_pointer(tokens: list[str]) -> str:
    """A JSON Pointer from reference tokens."""
    return "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in tokens)


def relative_tokens(prefix: str, pointer: str) -> list[str] | None:
    """The tokens of ``pointer`` below ``prefix``, or None when ``prefix`` does not contain it."""
    outer, inner = parse_pointer(prefix), parse_pointer(pointer)
    if inner[: len(outer)] != outer:
        return None
    return inner[len(outer):]


def value_at(doc: JSON, tokens: list[str], default: Any = None) -> JSON:
    """The value at ``tokens`` in ``doc``, or ``default`` when nothing is there."""
    node = doc
    for token in tokens:
        if isinstance(node, list):
            if not _INDEX.match(token) or int(token) >= len(node):
                return default
            node = node[int(token)]
        elif isinstance(node, dict):
            if token not in node:
                return default
            node = node[token]
        else:
            return default
    return node


def _patch_error(message: str) -> StateSyncError:
    return StateSyncError("bad_patch", message)


def _index(token: str, length: int, allow_end: bool) -> int:
    if allow_end and token == "-":
        return length
    if not _INDEX.match(token):
        raise _patch_error(f'"{token}" is not an array index')
    index = int(token)
    if index > length or (not allow_end and index == length):
        raise _patch_error(f"index {index} is out of bounds (length {length})")
    return index


def _edit_parent(doc: Any, tokens: list[str], edit: Callable[[Any, str], None]) -> Any:
    head, rest = tokens[0], tokens[1:]
    if isinstance(doc, list):
        copy: Any = list(doc)
    elif isinstance(doc, dict):
        copy = dict(doc)
    else:
        raise _patch_error(f"cannot go into {doc!r} at {head!r}")
    if not rest:
        edit(copy, head)
        return copy
    if isinstance(copy, list):
        key: Any = _index(head, len(copy), False)
    elif head in copy:
        key = head
    else:
        raise _patch_error(f"path does not exist at {head!r}")
    copy[key] = _edit_parent(copy[key], rest, edit)
    return copy


def _add(doc: Any, tokens: list[str], value: Any) -> Any:
    if not tokens:
        return value

    def edit(parent: Any, token: str) -> None:
        if isinstance(parent, list):
            parent.insert(_index(token, len(parent), True), value)
        else:
            parent[token] = value

    return _edit_parent(doc, tokens, edit)


def _remove(doc: Any, tokens: list[str]) -> Any:
    if not tokens:
        raise _patch_error("cannot remove the root")

    def edit(parent: Any, token: str) -> None:
        if isinstance(parent, list):
            del parent[_index(token, len(parent), False)]
        elif token in parent:
            del parent[token]
        else:
            raise _patch_error(f"nothing to remove at {token!r}")

    return _edit_parent(doc, tokens, edit)


def _replace(doc: Any, tokens: list[str], value: Any) -> Any:
    if not tokens:
        return value

    def edit(parent: Any, token: str) -> None:
        if isinstance(parent, list):
            parent[_index(token, len(parent), False)] = value
        elif token in parent:
            parent[token] = value
        else:
            raise _patch_error(f"nothing to replace at {token!r}")

    return _edit_parent(doc, tokens, edit)


def _existing(doc: Any, tokens: list[str], path: str) -> Any:
    value = value_at(doc, tokens, _MISSING)
    if value is _MISSING:
        raise _patch_error(f"path does not exist: {path}")
    return value


def json_equal(a: JSON, b: JSON) -> bool:
    """JSON equality: unlike ``==``, ``True`` is not ``1`` and ``1`` equals ``1.0``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return bool(a == b)


def apply_patch(doc: JSON, ops: list[PatchOperation]) -> JSON:
    """Applies RFC 6902 operations (all six) and returns the new document; all or nothing."""
    result = doc
    for index, op in enumerate(ops):
        kind, path = op.get("op"), op.get("path")
        try:
            tokens = parse_pointer(op["path"])
            if kind == "add":
                result = _add(result, tokens, op["value"])
            elif kind == "remove":
                result = _remove(result, tokens)
            elif kind == "replace":
                result = _replace(result, tokens, op["value"])
            elif kind == "move":
                source = parse_pointer(op["from"])
                if len(source) < len(tokens) and tokens[: len(source)] == source:
                    raise _patch_error(f"cannot move {op['from']} into its own child {path}")
                value = _existing(result, source, op["from"])
                result = _add(_remove(result, source), tokens, value)
            elif kind == "copy":
                result = _add(result, tokens, _existing(result, parse_pointer(op["from"]), op["from"]))
            elif kind == "test":
                if not json_equal(value_at(result, tokens, _MISSING), op["value"]):
                    raise _patch_error(f"test failed at {path}")
            else:
                raise _patch_error(f"unknown op {kind!r}")
        except (StateSyncError, KeyError) as error:
            detail = error.detail if isinstance(error, StateSyncError) else f"missing field {error}"
            raise _patch_error(f"operation {index} ({kind} {path}): {detail}") from None
    return result
