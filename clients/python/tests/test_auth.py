"""Tokens against a real `statesync serve --jwt-key-file` (HS256 JWTs minted in
support.py; the Python twin of clients/js/tests/auth.test.mjs): refresh_token
keeps the session and its subscriptions, takes the new role, survives a
refusal, waits for the next welcome when offline; a store the token does not
grant is forbidden; an expired token ends the session."""

from __future__ import annotations

import asyncio
import time

import pytest

from statesync_client import StateSyncClient, StateSyncError

from support import TIMEOUT, mint_jwt, run, until


def jwt_serve(start_server, key_file: str, port: int = 0):
    return start_server("--memory", "--port", str(port), "--jwt-key-file", key_file)


def test_a_refreshed_token_keeps_the_subscription_live_and_a_reader_is_then_forbidden(start_server, jwt_key_file):
    server = jwt_serve(start_server, jwt_key_file)

    async def scenario():
        async with StateSyncClient(server.url, token=mint_jwt({"sub": "alice", "role": "writer"})) as client, \
                StateSyncClient(server.url, token=mint_jwt({"sub": "bob", "role": "writer"})) as other:
            assert client.role == "writer"
            counters = await asyncio.wait_for(client.subscribe("/counters"), TIMEOUT)

            reader = mint_jwt({"sub": "alice", "role": "reader", "exp": int(time.time()) + 3600})
            await asyncio.wait_for(client.refresh_token(reader), TIMEOUT)
            assert (client.role, client.token, client.connection) == ("reader", reader, "open")

            # Still subscribed: another client's change reaches the mirror.
            rev = await asyncio.wait_for(other.dispatch({"type": "increment", "counter": "hits", "by": 2}), TIMEOUT)
            await until(lambda: counters.rev == rev, "bob's change in alice's mirror")
            assert counters.value == {"hits": 2}

            # A reader now: its dispatch is refused, and the session goes on.
            with pytest.raises(StateSyncError) as refused:
                await asyncio.wait_for(client.dispatch({"type": "increment", "counter": "hits"}), TIMEOUT)
            assert refused.value.code == "forbidden"
            assert (await asyncio.wait_for(client.get("/counters/hits"), TIMEOUT))["value"] == 2
            assert client.last_error is None

    run(scenario())


def test_a_refused_token_raises_unauthorized_and_the_connection_goes_on(start_server, jwt_key_file):
    server = jwt_serve(start_server, jwt_key_file)

    async def scenario():
        writer = mint_jwt({"sub": "alice", "role": "writer"})
        async with StateSyncClient(server.url, token=writer) as client:
            counters = await asyncio.wait_for(client.subscribe("/counters"), TIMEOUT)
            forged = mint_jwt({"sub": "alice", "role": "admin"}, secret="another-secret-of-at-least-32-bytes!")
            with pytest.raises(StateSyncError) as refused:
                await asyncio.wait_for(client.refresh_token(forged), TIMEOUT)
            assert refused.value.code == "unauthorized"
            assert "the token was refused" in refused.value.detail
            expired = mint_jwt({"sub": "alice", "role": "admin", "exp": int(time.time()) - 60})
            with pytest.raises(StateSyncError) as refused:
                await asyncio.wait_for(client.refresh_token(expired), TIMEOUT)
            assert refused.value.code == "unauthorized"

            # Still open, still a writer, and later hellos send the token in force.
            assert (client.connection, client.role, client.token, client.last_error) == ("open", "writer", writer, None)
            rev = await asyncio.wait_for(client.dispatch({"type": "increment", "counter": "hits"}), TIMEOUT)
            assert counters.rev == rev, "the subscription lives on"
            with pytest.raises(ValueError, match="non-empty token"):
                await client.refresh_token("")

    run(scenario())


def test_a_store_the_token_does_not_grant_is_forbidden_and_a_refresh_that_drops_one_ends_its_subscription(
    start_server, jwt_key_file,
):
    server = jwt_serve(start_server, jwt_key_file)

    async def scenario():
        async with StateSyncClient(server.url, token=mint_jwt({"sub": "carol", "stores": {"team-42-*": "writer"}})) as client:
            assert client.welcome is not None and "role" not in client.welcome
            assert client.role is None

            team = client.store("team-42-a")
            team_counters = await asyncio.wait_for(team.subscribe("/counters"), TIMEOUT)
            rev = await asyncio.wait_for(team.dispatch({"type": "increment", "counter": "hits"}), TIMEOUT)
            await until(lambda: team_counters.rev == rev, "the granted store's patch")
            assert team_counters.value == {"hits": 1}

            lobby = client.store("lobby")
            for request in (lobby.get(""), lobby.dispatch({"type": "increment", "counter": "n"}), client.get("/counters"),
                            client.subscribe("/todos")):
                with pytest.raises(StateSyncError) as refused:
                    await asyncio.wait_for(request, TIMEOUT)
                assert refused.value.code == "forbidden"
            assert client.connection == "open"

            # The new token grants main only: team-42-a's subscription ends (`unsubscribed`).
            await asyncio.wait_for(client.refresh_token(mint_jwt({"sub": "carol", "stores": {"main": "reader"}})), TIMEOUT)
            assert client.role == "reader"
            await until(lambda: team_counters.ended is not None, "the end of team-42-a's subscription")
            assert team_counters.ended is not None and team_counters.ended.code == "forbidden"
            assert "no longer grants" in team_counters.ended.detail
            assert (await asyncio.wait_for(client.get("/counters"), TIMEOUT))["value"] == {}

    run(scenario())


def test_offline_a_refreshed_token_waits_for_the_next_hello_and_returns_on_its_welcome(start_server, jwt_key_file):
    first = jwt_serve(start_server, jwt_key_file)

    async def scenario():
        writer = mint_jwt({"sub": "dave", "role": "writer"})
        async with StateSyncClient(first.url, token=writer, initial_backoff=0.05, max_backoff=0.3) as client:
            assert client.role == "writer"
            first.stop()
            await until(lambda: client.connection == "reconnecting", "the reconnecting state")
            reader = mint_jwt({"sub": "dave", "role": "reader"})
            refreshed = asyncio.create_task(client.refresh_token(reader))
            await asyncio.sleep(0)  # let it start: it sends nothing while offline
            assert not refreshed.done() and client.token == reader
            jwt_serve(start_server, jwt_key_file, first.port)
            await asyncio.wait_for(refreshed, TIMEOUT)
            # The new session's role is the reader token's: its hello carried it.
            assert client.connection == "open"
            assert client.welcome is not None and client.welcome.get("role") == "reader"
            assert client.role == "reader"

    run(scenario())


def test_when_the_token_in_force_expires_the_server_ends_the_session_and_the_client_stops(start_server, jwt_key_file):
    server = jwt_serve(start_server, jwt_key_file)

    async def scenario():
        client = StateSyncClient(server.url, token=mint_jwt({"sub": "erin", "role": "writer", "exp": int(time.time()) + 2}))
        try:
            await client.connect(TIMEOUT)
            await until(lambda: client.connection == "closed", "the end of the session at exp")
            assert client.last_error is not None and client.last_error.code == "unauthorized"
            with pytest.raises(StateSyncError) as refused:
                await client.refresh_token(mint_jwt({"sub": "erin", "role": "writer"}))
            assert refused.value.code == "unauthorized"
        finally:
            await client.close()

    run(scenario())
