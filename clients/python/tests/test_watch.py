"""`async for value in client.watch(path)` against a real `statesync serve` (see conftest.py)."""

from __future__ import annotations

import asyncio
from contextlib import aclosing

import pytest

from statesync_client import StateSyncClient, StateSyncError

from support import TIMEOUT, run, until, until_subscribed


async def collect(client: StateSyncClient, path: str, into: list) -> None:
    """Appends every value `watch(path)` yields to `into` until the watch ends."""
    async for value in client.watch(path):
        into.append(value)


def test_a_watch_yields_the_value_now_then_after_each_dispatched_change(server):
    async def scenario():
        async with StateSyncClient(server.url) as reader, StateSyncClient(server.url) as writer:
            async with aclosing(reader.watch("/todos")) as todos:
                assert await anext(todos) == []
                rev = await writer.dispatch({"type": "addTodo", "title": "Milk"})
                assert await asyncio.wait_for(anext(todos), TIMEOUT) == [{"id": f"t{rev}", "title": "Milk", "done": False, "priority": "normal"}]
                await writer.dispatch({"type": "renameTodo", "id": f"t{rev}", "title": "Oat milk"})
                assert await asyncio.wait_for(anext(todos), TIMEOUT) == [{"id": f"t{rev}", "title": "Oat milk", "done": False, "priority": "normal"}]

    run(scenario())


def test_two_watches_on_different_paths_see_only_their_own_changes(server):
    async def scenario():
        async with StateSyncClient(server.url) as client:
            hits: list = []
            todos: list = []
            tasks = [asyncio.create_task(collect(client, "/counters/hits", hits)),
                     asyncio.create_task(collect(client, "/todos", todos))]
            await until(lambda: hits == [None] and todos == [[]], "both snapshots")
            await until_subscribed(server.url, client.client_id, ["/counters/hits", "/todos"])
            await client.dispatch({"type": "increment", "counter": "hits", "by": 2})
            await until(lambda: hits == [None, 2], "the new count")
            rev = await client.dispatch({"type": "addTodo", "title": "Milk"})
            await until(lambda: len(todos) == 2, "the new todo")
            assert todos[1] == [{"id": f"t{rev}", "title": "Milk", "done": False, "priority": "normal"}]
            await client.dispatch({"type": "increment", "counter": "other"})
            await client.dispatch({"type": "increment", "counter": "hits"})
            await until(lambda: hits == [None, 2, 3], "the second count")
            assert todos == [[], [{"id": f"t{rev}", "title": "Milk", "done": False, "priority": "normal"}]], "no counter reached the todos"
            await client.close()
            await asyncio.wait_for(asyncio.gather(*tasks), TIMEOUT)

    run(scenario())


def test_breaking_out_of_a_watch_unsubscribes(server):
    async def scenario():
        async with StateSyncClient(server.url) as client:
            async for value in client.watch("/counters"):
                assert value == {}
                await until_subscribed(server.url, client.client_id, ["/counters"])
                break
            await until_subscribed(server.url, client.client_id, [])
            # A watch riding on another's subscription keeps it open until the last one stops.
            async with aclosing(client.watch("/todos")) as outer:
                assert await anext(outer) == []
                async with aclosing(client.watch("/todos/0")) as inner:
                    assert await anext(inner) is None
                    await outer.aclose()
                    await until_subscribed(server.url, client.client_id, ["/todos"])
                    await client.dispatch({"type": "addTodo", "title": "Milk"})
                    assert (await asyncio.wait_for(anext(inner), TIMEOUT))["title"] == "Milk"
            await until_subscribed(server.url, client.client_id, [])
            # An explicit subscription outlives the watches riding on it.
            counters = await client.subscribe("/counters")
            async for _ in client.watch("/counters/hits"):
                break
            rev = await client.dispatch({"type": "increment", "counter": "hits"})
            await until(lambda: counters.rev == rev, "the explicit subscription's patch")
            await until_subscribed(server.url, client.client_id, ["/counters"])

    run(scenario())


def test_closing_the_client_ends_its_watches(server):
    async def scenario():
        client = StateSyncClient(server.url)
        await client.connect()
        seen: list = []
        watching = asyncio.create_task(collect(client, "/counters/hits", seen))
        await until(lambda: seen == [None], "the snapshot")
        await client.close()
        await asyncio.wait_for(watching, TIMEOUT)
        assert seen == [None]
        async for value in client.watch("/todos"):
            raise AssertionError(f"a closed client's watch yielded {value!r}")

    run(scenario())


def test_a_slow_watcher_gets_the_newest_value_not_every_one(server):
    async def scenario():
        async with StateSyncClient(server.url) as client:
            async with aclosing(client.watch("/counters/hits")) as hits:
                assert await anext(hits) is None
                for _ in range(5):  # each ack follows its patch: the mirror holds 5 at the end
                    await client.dispatch({"type": "increment", "counter": "hits"})
                assert await asyncio.wait_for(anext(hits), TIMEOUT) == 5
                await client.dispatch({"type": "increment", "counter": "hits"})
                assert await asyncio.wait_for(anext(hits), TIMEOUT) == 6

    run(scenario())


def test_a_watch_of_a_path_the_server_refuses_raises(start_server):
    server = start_server("--memory", "--port", "0", "--restrict-read", "/presence=admin")

    async def scenario():
        async with StateSyncClient(server.url) as client:
            with pytest.raises(StateSyncError) as forbidden:
                async for _ in client.watch("/presence"):
                    pass
            assert forbidden.value.code == "forbidden"
            assert forbidden.value.reply is not None and forbidden.value.reply["type"] == "error"
            with pytest.raises(StateSyncError) as invalid:
                async for _ in client.watch("presence"):
                    pass
            assert invalid.value.code == "invalid_path"
            async for hits in client.watch("/counters/hits"):  # the client goes on
                assert hits is None
                break

    run(scenario())
