"""Action ids against a real `statesync serve` (see conftest.py): unique across
instances that share a client id, and exactly-once when an in-flight dispatch
is re-sent after its connection dropped."""

from __future__ import annotations

import asyncio
import re

from statesync_client import StateSyncClient

from test_client import TIMEOUT, run, until


class HoldingProxy:
    """A TCP proxy on loopback between a client and the server.

    While ``holding`` is set, it swallows everything the server sends (so an
    ``ack`` is lost on the way); ``drop()`` then cuts every proxied connection,
    as a network failure would. New connections are proxied normally.
    """

    def __init__(self, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        self.holding = False
        self.connections = 0
        self._writers: list[asyncio.StreamWriter] = []
        self._server: asyncio.Server | None = None
        self.port = 0

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _accept(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        self._writers += [client_writer, server_writer]

        async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, from_server: bool) -> None:
            try:
                while data := await reader.read(65536):
                    if from_server and self.holding:
                        continue
                    writer.write(data)
                    await writer.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                writer.close()

        await asyncio.gather(pipe(client_reader, server_writer, False), pipe(server_reader, client_writer, True))

    def drop(self) -> None:
        """Cuts every proxied connection (both sides), and stops holding."""
        for writer in self._writers:
            writer.transport.abort()
        self._writers.clear()
        self.holding = False

    async def close(self) -> None:
        self.drop()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()


def test_action_ids_have_a_random_per_instance_prefix():
    first, second = StateSyncClient("ws://127.0.0.1:1/sync", client_id="c-saved"), StateSyncClient("ws://127.0.0.1:1/sync", client_id="c-saved")
    assert re.fullmatch(r"[0-9a-f]{12}", first.action_id_prefix)
    assert first.action_id_prefix != second.action_id_prefix


def test_two_instances_with_the_same_client_id_both_get_their_actions_applied(server):
    async def scenario():
        async with StateSyncClient(server.url, client_id="c-saved") as first:
            first_rev = await first.dispatch({"type": "increment", "counter": "hits"})
        # A new instance given the saved client id, as after a restart.
        async with StateSyncClient(server.url, client_id="c-saved") as second:
            counters = await second.subscribe("/counters")
            second_rev = await second.dispatch({"type": "increment", "counter": "hits", "by": 10})
            assert second_rev > first_rev, "a new revision, not the first instance's remembered ack"
            await until(lambda: counters.rev == second_rev, "the second action's patch")
            assert counters.value == {"hits": 11}, "both actions applied"
            reply = await second.get("/counters")
            assert reply["value"] == {"hits": 11}

    run(scenario())


def test_an_in_flight_dispatch_resent_after_the_connection_drops_is_applied_once(server):
    async def scenario():
        proxy = HoldingProxy(server.port)
        await proxy.start()
        async with StateSyncClient(server.url) as observer:
            counters = await observer.subscribe("/counters")
            client = StateSyncClient(f"ws://127.0.0.1:{proxy.port}/sync", initial_backoff=0.05, max_backoff=0.3)
            await client.connect()
            proxy.holding = True  # the server's ack will not reach the client
            pending = asyncio.create_task(client.dispatch({"type": "increment", "counter": "hits", "by": 5}))
            await until(lambda: counters.value == {"hits": 5}, "the server applying the action")
            applied_rev = counters.rev
            assert not pending.done(), "the ack was held back"
            proxy.drop()
            # The client reconnects and re-sends the dispatch with its id; the
            # server answers with the remembered outcome instead of applying it again.
            rev = await asyncio.wait_for(pending, TIMEOUT)
            assert rev == applied_rev, "resolved with the revision the action was applied at"
            assert proxy.connections >= 2, "the dispatch went out again on a new connection"
            reply = await observer.get("/counters")
            assert reply["value"] == {"hits": 5}, "applied exactly once"
            # Presence changes (sessions joining and leaving) take revisions too,
            # so the counters' own subscription says that they did not change again.
            assert counters.value == {"hits": 5} and counters.rev == applied_rev, "no second change of /counters"
            await client.close()
        await proxy.close()

    run(scenario())
