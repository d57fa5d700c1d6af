"""Many stores over one connection, against a real `statesync serve` (the Python
twin of clients/js/tests/stores.test.mjs): each store sees only its own
changes, ids are per store, names are checked before anything is sent, and
after a reconnect each store resumes on its own (``since`` within its own
epoch; a new epoch of one store starts only its mirrors over)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from statesync_client import StateSyncClient, StateSyncError

from support import TIMEOUT, run, until
from test_client import free_port

RULE = 'a store name is 1 to 64 characters of a-z, 0-9, ".", "_" and "-", starting with a letter or a digit'


def record(client: StateSyncClient) -> list[dict[str, Any]]:
    """The messages ``client`` sends from now on (hello aside), as they go out."""
    sent: list[dict[str, Any]] = []
    original = client._send

    async def send(message: Any) -> None:
        if client._socket is not None and client.connection == "open":
            sent.append(dict(message))
        await original(message)

    client._send = send  # type: ignore[method-assign]
    return sent


def test_two_stores_on_one_connection_each_see_only_their_own_changes_and_the_same_ids_are_different_things(server):
    async def scenario():
        async with StateSyncClient(server.url, initial_backoff=0.05, max_backoff=0.3) as client, \
                StateSyncClient(server.url) as other:
            sent = record(client)
            team = client.store("team-42")
            assert client.store("team-42") is team, "one object per name"
            assert client.store("main").name == "main"
            main_counters = await client.subscribe("/counters")
            team_counters = await team.subscribe("/counters")
            assert main_counters.id == team_counters.id == "s1", "ids are per store"
            assert (main_counters.store, team_counters.store) == ("main", "team-42")
            assert (team.epoch or "").startswith("e-"), "the store's epoch came with its snapshot"
            assert client.store("main").epoch == client.welcome["epoch"]
            team_hits: list[Any] = []
            stop = await team.observe("/counters/hits", lambda hits, _rev: team_hits.append(hits))

            # Patches come before the ack on the dispatching connection: a patch
            # routed to the wrong mirror would show by the time dispatch returns.
            rev = await team.dispatch({"type": "increment", "counter": "hits", "by": 2})
            assert team_counters.value == {"hits": 2} and team_counters.rev == rev and team.rev == rev
            assert main_counters.value == {}, "main did not change"
            await client.dispatch({"type": "increment", "counter": "hits", "by": 5})
            assert main_counters.value == {"hits": 5}
            assert team_counters.value == {"hits": 2}, "team-42 did not change"
            assert team_hits == [None, 2]
            assert (team.peek("/counters/hits"), client.peek("/counters/hits")) == (2, 5)

            # The same action id in two stores is two actions, both applied.
            dispatches = [m for m in sent if m["type"] == "dispatch"]
            assert [m.get("store", "main") for m in dispatches] == ["team-42", "main"]
            assert dispatches[0]["id"] == dispatches[1]["id"], "the same action id in both stores"
            assert "store" not in dispatches[1], "main's messages do not name it"

            # Another connection reads each store as this one wrote it, and a
            # watch of team-42 sees its changes only.
            assert (await other.get("/counters"))["value"] == {"hits": 5}
            other_team = other.store("team-42")
            assert (await other_team.get("/counters"))["value"] == {"hits": 2}
            watched: list[Any] = []

            async def watch() -> None:
                async for hits in team.watch("/counters/hits"):
                    watched.append(hits)
                    if hits == 3:
                        return

            watching = asyncio.create_task(watch())
            await until(lambda: watched == [2], "the watch's first value")
            await other.dispatch({"type": "increment", "counter": "hits", "by": 100})
            await other_team.dispatch({"type": "increment", "counter": "hits"})
            await asyncio.wait_for(watching, TIMEOUT)
            assert watched == [2, 3]
            await until(lambda: main_counters.value == {"hits": 105}, "main's change")
            assert team_counters.value == {"hits": 3}

            # A refusal in one store (same id s2 in both) ends only that store's
            # subscription. (This server's error does not name team-42: the
            # client routes it to the store awaiting an answer with that id.)
            main_todos = await client.subscribe("/todos")
            with pytest.raises(StateSyncError) as refused:
                await team.subscribe("/" + "x/" * 40 + "x")
            assert refused.value.code == "invalid_path"
            bad = [m for m in sent if m["type"] == "subscribe" and m.get("store") == "team-42" and m["path"].startswith("/x/")]
            assert [m["id"] for m in bad] == [main_todos.id]
            await client.dispatch({"type": "addTodo", "title": "Milk"})
            assert len(main_todos.value) == 1, "main's s2 lives on"

            # Unsubscribing s1 in team-42 leaves s1 in main.
            await stop()
            await team_counters.close()
            await other_team.dispatch({"type": "increment", "counter": "hits"})
            await other.dispatch({"type": "increment", "counter": "hits"})
            await until(lambda: main_counters.value == {"hits": 106}, "main's s1 still hears")
            assert team_counters.value == {"hits": 3}, "team-42's s1 is closed"
            assert [m for m in sent if m["type"] == "unsubscribe"] == [{"type": "unsubscribe", "id": "s1", "store": "team-42"}]

    run(scenario())


def test_a_store_name_against_the_rule_is_refused_at_the_call_naming_the_rule(server):
    async def scenario():
        async with StateSyncClient(server.url) as client:
            sent = record(client)
            for name in ["Team", "", "-team", ".team", "_team", "team 42", "team/42", "t" * 65, "täm", "team\n"]:
                with pytest.raises(StateSyncError) as refused:
                    client.store(name)
                assert refused.value.code == "invalid_store"
                assert refused.value.detail == f"invalid store {name!r}: {RULE}"
            with pytest.raises(TypeError, match="a store name must be a str, not 42"):
                client.store(42)  # type: ignore[arg-type]
            assert sent == [], "nothing was sent"
            # The names at the rule's edges are the server's too.
            for name in ["0", "t" * 64, "a.b_c-d"]:
                assert (await client.store(name).get("/counters"))["value"] == {}, f"{name} is a store of the server"

    run(scenario())


def test_after_a_reconnect_each_store_resumes_with_its_own_since(start_server, tmp_path):
    port = free_port()
    arguments = ("--data", str(tmp_path), "--port", str(port))
    first = start_server(*arguments)

    async def scenario():
        async with StateSyncClient(first.url, initial_backoff=0.05, max_backoff=0.3) as client:
            sent = record(client)
            team = client.store("team-42")
            main_counters = await client.subscribe("/counters")
            team_counters = await team.subscribe("/counters")
            for _ in range(4):
                await team.dispatch({"type": "increment", "counter": "hits"})
            await client.dispatch({"type": "increment", "counter": "hits", "by": 10})
            main_rev, team_rev = main_counters.rev, team_counters.rev
            main_epoch, team_epoch = client.welcome["epoch"], team.epoch
            assert main_rev != team_rev, "the stores are at different revisions"

            first.stop()
            await until(lambda: client.connection == "reconnecting", "the reconnecting state")
            pending = asyncio.create_task(team.dispatch({"type": "increment", "counter": "hits", "by": 100}))
            before = len(sent)
            start_server(*arguments)
            rev = await asyncio.wait_for(pending, TIMEOUT)
            await until(lambda: team_counters.rev == rev, "team-42's resumed subscription")
            assert client.welcome["epoch"] == main_epoch
            assert team.epoch == team_epoch, "the same data: the same epoch of team-42"
            assert team_counters.value == {"hits": 104}
            assert main_counters.value == {"hits": 10}

            again = sent[before:]
            subscribes = [m for m in again if m["type"] == "subscribe"]
            assert [m for m in subscribes if "store" not in m] == [
                {"type": "subscribe", "id": main_counters.id, "path": "/counters", "since": main_rev}], "main from main's revision"
            assert [m for m in subscribes if m.get("store") == "team-42"] == [
                {"type": "subscribe", "id": team_counters.id, "path": "/counters", "store": "team-42", "since": team_rev}], \
                "team-42 from its own"
            probe = next(i for i, m in enumerate(again) if m["type"] == "get" and m.get("store") == "team-42")
            resume = next(i for i, m in enumerate(again) if m["type"] == "subscribe" and m.get("store") == "team-42")
            assert probe < resume, "team-42's epoch was asked (a get) before resuming with since"

            await client.dispatch({"type": "increment", "counter": "hits"})
            assert main_counters.value == {"hits": 11}

    run(scenario())


def test_a_new_epoch_of_one_store_starts_only_that_stores_mirrors_over(start_server, tmp_path):
    port = free_port()
    arguments = ("--data", str(tmp_path), "--port", str(port))
    first = start_server(*arguments)

    async def scenario():
        async with StateSyncClient(first.url, initial_backoff=0.05, max_backoff=0.3) as client:
            sent = record(client)
            team = client.store("team-42")
            main_counters = await client.subscribe("/counters")
            team_counters = await team.subscribe("/counters")
            for _ in range(6):
                await team.dispatch({"type": "increment", "counter": "hits"})
            await client.dispatch({"type": "increment", "counter": "hits", "by": 10})
            main_rev, main_epoch, team_epoch = main_counters.rev, client.welcome["epoch"], team.epoch

            first.stop()
            # team-42's history starts anew (the file of every store but main is gone); main's stays.
            for name in ("stores.sqlite", "stores.sqlite-wal", "stores.sqlite-shm", "stores.durable"):
                (tmp_path / name).unlink(missing_ok=True)
            before = len(sent)
            start_server(*arguments)
            await until(lambda: team.epoch != team_epoch and team_counters.rev is not None,
                        "team-42's fresh snapshot in its new epoch")
            assert client.welcome["epoch"] == main_epoch, "main's history is the same"
            assert team_counters.value == {}, "team-42's mirror started over"
            assert main_counters.value == {"hits": 10}, "main's mirror is kept"
            subscribes = [m for m in sent[before:] if m["type"] == "subscribe"]
            assert [m for m in subscribes if "store" not in m] == [
                {"type": "subscribe", "id": main_counters.id, "path": "/counters", "since": main_rev}]
            assert [m for m in subscribes if m.get("store") == "team-42"] == [
                {"type": "subscribe", "id": team_counters.id, "path": "/counters", "store": "team-42"}], \
                "team-42: no since from the old epoch"
            await team.dispatch({"type": "increment", "counter": "hits"})
            assert team_counters.value == {"hits": 1}

    run(scenario())


def test_a_refusal_in_a_store_with_an_id_main_awaits_too_reaches_that_store(start_server):
    server = start_server("--memory", "--port", "0", "--restrict-read", "/presence=admin")

    async def scenario():
        async with StateSyncClient(server.url) as client:
            team = client.store("team-42")
            # team-42's subscribe goes out first: its error comes before main's
            # snapshot, while both await an answer to s1.
            refused = asyncio.create_task(team.subscribe("/presence"))
            main = asyncio.create_task(client.subscribe("/todos"))
            try:
                await asyncio.wait({main}, timeout=TIMEOUT)
                assert main.done() and main.exception() is None, f"main's subscription ended: {main.exception()!r}"
                with pytest.raises(StateSyncError, match="forbidden"):
                    await asyncio.wait_for(refused, TIMEOUT)
            finally:
                refused.cancel()

    run(scenario())
