"""The client's API as a type checker sees it: ``mypy --strict`` checks this
file with the package (``cd clients/python && python3 -m mypy --strict
statesync_client examples``). It is never run.

Each ``# type: ignore[code]`` marks a mistake mypy must refuse: were it
accepted, ``--strict`` (``--warn-unused-ignores``) would fail with "Unused
'type: ignore' comment".
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Awaitable, Callable

from statesync_client import (
    JSON, AuthMessage, AuthorizedMessage, ErrorMessage, Reading, Role, ServerMessage, SnapshotMessage,
    StateSyncClient, StateSyncError, Store, StoreName, Subscription, SubscribeMessage, ValueMessage,
)


async def tokens(client: StateSyncClient) -> None:
    # A new token in place; the role in main is None when the token grants none there.
    await client.refresh_token("eyJhbGciOiJIUzI1NiJ9.e30.sig")
    role: Role | None = client.role
    welcomed: Role | None = client.welcome.get("role") if client.welcome else None
    print(role, welcomed)
    await client.refresh_token(None)  # type: ignore[arg-type]



async def stores(client: StateSyncClient) -> None:
    # Another store over the same connection: the client's API, its own ids and revisions.
    team: Store = client.store("team-42")
    name: StoreName = team.name
    epoch: str | None = team.epoch
    rev: int | None = team.rev
    same: StateSyncClient = team.client
    todos: Subscription = await team.subscribe("/todos", lambda value, at: print(at, value))
    in_store: str = todos.store
    stop: Callable[[], Awaitable[None]] = await team.observe("/counters/hits", lambda hits, _at: print(hits))
    hits: AsyncGenerator[JSON, None] = team.watch("/counters/hits")
    async for value in hits:
        print(value)
        break
    applied: int = await team.dispatch({"type": "increment", "counter": "hits"})
    reading: Reading = await team.get("/counters")
    peeked: JSON = team.peek("/todos")
    main: Store = client.store("main")  # the client's own store
    print(name, epoch, rev, same, in_store, applied, reading["rev"], peeked, main.rev, client.rev)
    await stop()

    client.store(42)  # type: ignore[arg-type]
    team.rev = 3  # type: ignore[misc]
    team.name = "other"  # type: ignore[misc]
    team.store("nested")  # type: ignore[attr-defined]
    await team.dispatch("increment")  # type: ignore[arg-type]
    await team.close()  # type: ignore[attr-defined]


def messages(message: ServerMessage) -> str:
    """The protocol's messages name their store (absent: main); snapshot and value carry its epoch."""
    if message["type"] == "snapshot":
        snapshot: SnapshotMessage = message
        return f'{snapshot.get("store", "main")} {snapshot.get("epoch")} {snapshot["id"]} {snapshot["rev"]}'
    if message["type"] == "value":
        value: ValueMessage = message
        return f'{value.get("store", "main")} {value.get("epoch")} {value["rev"]}'
    if message["type"] == "error":
        error: ErrorMessage = message
        return f'{error.get("store", "main")} {error["code"]}'
    if message["type"] == "authorized":
        authorized: AuthorizedMessage = message
        return f'{authorized["id"]} {authorized.get("role")} {authorized.get("expires")}'
    if message["type"] == "patch":
        base: int = message["base"]
        patch_epoch: str = message["epoch"]  # type: ignore[typeddict-item]
        return f"{base} {patch_epoch}"
    return message["type"]


subscribe: SubscribeMessage = {"type": "subscribe", "store": "team-42", "id": "s1", "path": "/todos", "since": 12}
numbered: SubscribeMessage = {"type": "subscribe", "store": 7, "id": "s1", "path": ""}  # type: ignore[typeddict-item]
auth: AuthMessage = {"type": "auth", "id": "t1", "token": "eyJhbGciOiJIUzI1NiJ9.e30.sig"}
tokenless: AuthMessage = {"type": "auth", "id": "t1"}  # type: ignore[typeddict-item]
refused = StateSyncError("invalid_store", "invalid store 'Team'")
print(subscribe, numbered, auth, tokenless, refused.code)
