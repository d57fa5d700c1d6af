"""The client declares its app schema version in ``hello``; a server that needs a newer
one stops it with ``upgrade_required`` instead of letting it retry. Against a real
`statesync serve` (the board, at app schema version 2; see conftest.py)."""

from __future__ import annotations

import pytest

from statesync_client import StateSyncClient, StateSyncError

from support import run


def test_an_older_client_is_stopped_with_upgrade_required_and_a_current_one_goes_on(server):
    async def scenario():
        old = StateSyncClient(server.url, schema_version=1, initial_backoff=0.01)
        with pytest.raises(StateSyncError) as refused:
            await old.connect()
        assert refused.value.code == "upgrade_required"
        assert "this client speaks app schema version 1; this server accepts version 2" in str(refused.value)
        assert old.connection == "closed", "not retried"
        await old.close()

        async with StateSyncClient(server.url, schema_version=2) as current:
            await current.dispatch({"type": "postMessage", "text": "still here"})
            chat = await current.get("/chat")
            assert [line["text"] for line in chat["value"]][-1:] == ["still here"]

    run(scenario())


def test_a_schema_version_that_is_not_one_is_refused_at_once():
    with pytest.raises(ValueError, match="schema_version must be an integer from 1"):
        StateSyncClient("ws://127.0.0.1:1/sync", schema_version=0)
