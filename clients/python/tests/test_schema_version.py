"""The client declares its app schema version in ``hello``; a server that needs a newer
one stops it with ``upgrade_required`` instead of letting it retry. The server is
scripted (the board's server speaks version 1 only), over a real loopback socket."""

from __future__ import annotations

import json

import pytest
from websockets.asyncio.server import ServerConnection, serve

from statesync_client import StateSyncClient, StateSyncError

from support import run


def test_an_older_client_is_stopped_with_upgrade_required():
    hellos: list[dict[str, object]] = []

    async def refuse(connection: ServerConnection) -> None:
        hellos.append(json.loads(await connection.recv()))
        await connection.send(json.dumps({
            "type": "error", "code": "upgrade_required",
            "message": "this client speaks app schema version 1; this server accepts version 2: upgrade the client"}))
        await connection.close(4426, "upgrade required")

    async def scenario():
        async with serve(refuse, "127.0.0.1", 0, subprotocols=["statesync.v1"]) as server:
            port = server.sockets[0].getsockname()[1]
            client = StateSyncClient(f"ws://127.0.0.1:{port}/sync", schema_version=1, initial_backoff=0.01)
            with pytest.raises(StateSyncError) as refused:
                await client.connect()
            assert refused.value.code == "upgrade_required"
            assert client.connection == "closed"
            await client.close()

    run(scenario())
    assert len(hellos) == 1, "not retried"
    assert hellos[0]["schemaVersion"] == 1


def test_a_schema_version_that_is_not_one_is_refused_at_once():
    with pytest.raises(ValueError, match="schema_version must be an integer from 1"):
        StateSyncClient("ws://127.0.0.1:1/sync", schema_version=0)
