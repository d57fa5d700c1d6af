"""A dispatch re-sent after its connection closed unanswered may have been applied:
an ``unavailable`` refusal of the re-send is not its outcome, so the client sends
it again until it is decided; a first send refused ``unavailable`` fails at once.

The server is scripted (a real one cannot be made to lose a commit's answer and
then fail its storage on cue), speaking the protocol over a real loopback socket.
"""

from __future__ import annotations

import json

import pytest
from websockets.asyncio.server import ServerConnection, serve

from statesync_client import StateSyncClient, StateSyncError

from support import run

UNAVAILABLE = "the server cannot store actions right now; this dispatch was not applied"


class Script:
    """The first connection takes one dispatch and closes unanswered (1008); the
    second refuses that dispatch's re-send ``unavailable`` twice, acks its third
    send at revision 7, and refuses the next new dispatch ``unavailable``."""

    def __init__(self) -> None:
        self.dispatches: list[list[str]] = []

    async def serve(self, connection: ServerConnection) -> None:
        self.dispatches.append([])
        number = len(self.dispatches)
        answered = 0
        async for text in connection:
            message = json.loads(text)
            if message["type"] == "hello":
                await connection.send(json.dumps({
                    "type": "welcome", "session": f"s-{number}", "epoch": "e-1", "rev": 0,
                    "role": "writer", "server": "script"}))
            elif message["type"] == "dispatch":
                self.dispatches[-1].append(message["id"])
                if number == 1:
                    await connection.close(1008, "reconnect and send it again")
                    return
                answered += 1
                answer = {"type": "ack", "id": message["id"], "rev": 7} if answered == 3 else {
                    "type": "reject", "id": message["id"], "code": "unavailable", "message": UNAVAILABLE}
                await connection.send(json.dumps(answer))


def test_an_unavailable_refusal_of_a_re_sent_dispatch_is_retried_until_it_is_decided():
    script = Script()

    async def scenario():
        async with serve(script.serve, "127.0.0.1", 0, subprotocols=["statesync.v1"]) as server:
            port = server.sockets[0].getsockname()[1]
            async with StateSyncClient(f"ws://127.0.0.1:{port}/sync", initial_backoff=0.02, max_backoff=0.1) as client:
                assert await client.dispatch({"type": "increment", "counter": "hits"}) == 7
                with pytest.raises(StateSyncError) as refused:
                    await client.dispatch({"type": "increment", "counter": "hits"})
                assert refused.value.code == "unavailable"

    run(scenario())
    first = script.dispatches[0]
    assert len(first) == 1, script.dispatches
    assert script.dispatches[1][:3] == first * 3, "re-sent after the close, refused, sent again and acked"
    assert len(script.dispatches[1]) == 4 and script.dispatches[1][3] != first[0], script.dispatches
