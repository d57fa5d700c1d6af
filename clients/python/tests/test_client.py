"""The client against a real `statesync serve` (see conftest.py)."""

from __future__ import annotations

import asyncio
import socket

import pytest

from statesync_client import StateSyncClient, StateSyncError

from support import TIMEOUT, run, until


def free_port() -> int:
    """A loopback port nobody listens on now (the OS's choice, released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def stop_and_resume(client, first, start_next):
    """With `client` online on `first`: counts a hit, stops `first`, dispatches
    while the client reconnects, starts the next server over the same data
    (`start_next()`, returned), and checks that the client resumed there: the
    same epoch, the pending dispatch applied once, the subscription resumed
    with its patch."""
    epoch = client.welcome["epoch"]
    counters = await client.subscribe("/counters")
    await client.dispatch({"type": "increment", "counter": "hits"})
    await until(lambda: counters.value == {"hits": 1}, "hits 1")
    first.stop()
    await until(lambda: client.connection == "reconnecting", "the reconnecting state")
    pending = asyncio.create_task(client.dispatch({"type": "increment", "counter": "hits", "by": 2}))
    second = start_next()
    await until(lambda: client.connection == "open", "the reconnect")
    assert client.welcome["epoch"] == epoch, "same data directory, same history"
    rev = await asyncio.wait_for(pending, TIMEOUT)
    await until(lambda: counters.rev == rev, "the resumed subscription's patch")
    assert counters.value == {"hits": 3}
    return second


def test_a_dispatch_from_one_client_reaches_the_mirror_of_another(server):
    async def scenario():
        async with StateSyncClient(server.url, name="reader") as reader, StateSyncClient(server.url, name="writer") as writer:
            assert reader.welcome["role"] == "writer"
            todos = await reader.subscribe("/todos")
            assert todos.value == []
            rev = await writer.dispatch({"type": "addTodo", "title": "Milk"})
            await until(lambda: todos.rev == rev, "the patch of the new todo")
            assert todos.value == [{"id": f"t{rev}", "title": "Milk", "done": False, "priority": "normal"}]
            got = await writer.get("/todos/0/title")
            assert got == {"rev": rev, "value": "Milk"}

    run(scenario())


def test_a_rejection_carries_the_code_and_message_and_changes_nothing(server):
    async def scenario():
        async with StateSyncClient(server.url) as client:
            with pytest.raises(StateSyncError) as error:
                await client.dispatch({"type": "toggleTodo", "id": "nope"})
            assert error.value.code == "not_found"
            assert "nope" in error.value.detail
            assert error.value.reply is not None and error.value.reply["type"] == "reject"
            assert error.value.reply["message"] == error.value.detail
            with pytest.raises(StateSyncError) as invalid:
                await client.dispatch({"type": "addTodo", "title": ""})
            assert invalid.value.code == "invalid_action"
            assert (await client.get("/todos"))["value"] == []

    run(scenario())


def test_observe_a_slice_below_a_subscription(server):
    async def scenario():
        async with StateSyncClient(server.url) as client:
            first = await client.dispatch({"type": "addTodo", "title": "Milk"})
            await client.subscribe("/todos")
            titles: list = []
            stop = await client.observe("/todos/0/title", lambda value, rev: titles.append(value))
            assert titles == ["Milk"]
            await client.dispatch({"type": "toggleTodo", "id": f"t{first}"})  # not the title: no call
            await client.dispatch({"type": "renameTodo", "id": f"t{first}", "title": "Oat milk"})
            await until(lambda: titles == ["Milk", "Oat milk"], "the renamed title")
            await client.dispatch({"type": "removeTodo", "id": f"t{first}"})
            await until(lambda: titles == ["Milk", "Oat milk", None], "the removed todo")
            await stop()
            watched = client.watch("/counters/hits")
            assert await anext(watched) is None
            await client.dispatch({"type": "increment", "counter": "hits", "by": 5})
            assert await asyncio.wait_for(anext(watched), TIMEOUT) == 5
            await watched.aclose()

    run(scenario())


def test_reconnects_resumes_with_since_and_resends_a_pending_dispatch(start_server, tmp_path):
    data = str(tmp_path / "data")
    first = start_server("--data", data, "--port", "0")

    async def scenario():
        client = StateSyncClient(first.url, initial_backoff=0.05, max_backoff=0.3)
        states: list = []
        client.on_connection(states.append)
        await client.connect()
        second = await stop_and_resume(client, first, lambda: start_server("--data", data, "--port", str(first.port)))
        assert states[:4] == ["closed", "connecting", "open", "reconnecting"]
        await client.close()
        second.stop()

    run(scenario())


def test_a_new_epoch_drops_the_mirror_and_starts_over(start_server):
    first = start_server("--memory", "--port", "0")

    async def scenario():
        async with StateSyncClient(first.url, initial_backoff=0.05, max_backoff=0.3) as client:
            epoch = client.welcome["epoch"]
            counters = await client.subscribe("/counters")
            await client.dispatch({"type": "increment", "counter": "hits", "by": 7})
            await until(lambda: counters.value == {"hits": 7}, "hits 7")
            first.stop()
            start_server("--memory", "--port", str(first.port))
            await until(lambda: client.welcome["epoch"] != epoch and counters.value == {}, "a fresh snapshot of the new history")
            rev = await client.dispatch({"type": "increment", "counter": "hits"})
            await until(lambda: counters.rev == rev, "the next patch")
            assert counters.value == {"hits": 1}

    run(scenario())


def test_a_bad_token_is_refused_without_retrying(start_server):
    server = start_server("--memory", "--port", "0", "--token", "s3cret=admin")

    async def scenario():
        client = StateSyncClient(server.url, token="wrong")
        with pytest.raises(StateSyncError) as error:
            await client.connect()
        assert error.value.code == "unauthorized"
        assert client.connection == "closed"
        await client.close()
        async with StateSyncClient(server.url, token="s3cret") as admin:
            assert admin.welcome["role"] == "admin"

    run(scenario())


def test_fails_over_to_the_next_url_and_resumes_there(start_server, tmp_path):
    data = str(tmp_path / "data")
    first = start_server("--data", data, "--port", "0")
    spare = free_port()

    async def scenario():
        # The second node is not up yet: the same history will be served there.
        client = StateSyncClient([first.url, f"ws://127.0.0.1:{spare}/sync"], initial_backoff=0.05, max_backoff=0.3)
        await client.connect()
        assert client.url == first.url
        await stop_and_resume(client, first, lambda: start_server("--data", data, "--port", str(spare)))
        assert client.url == f"ws://127.0.0.1:{spare}/sync"
        await client.close()

    run(scenario())


def test_a_dead_first_url_is_skipped(server):
    async def scenario():
        dead = f"ws://127.0.0.1:{free_port()}/sync"
        async with StateSyncClient(f"{dead}, {server.url}", initial_backoff=0.05, max_backoff=0.3) as client:
            assert client.urls == [dead, server.url]
            assert client.url == server.url
            assert await client.dispatch({"type": "increment", "counter": "hits"}) >= 1

    run(scenario())


def test_requests_after_close_fail_with_closed(server):
    async def scenario():
        client = StateSyncClient(server.url)
        await client.connect()
        await client.close()
        for request in (client.dispatch({"type": "increment", "counter": "hits"}), client.get("/todos"), client.subscribe("/todos")):
            with pytest.raises(StateSyncError) as error:
                await asyncio.wait_for(request, TIMEOUT)
            assert error.value.code == "closed"

    run(scenario())


def test_no_url_is_refused():
    with pytest.raises(ValueError, match="at least one URL"):
        StateSyncClient(" , ")
