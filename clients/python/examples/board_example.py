"""A short tour of the Python client against `statesync serve` (the board app).

    swift run statesync serve --memory &
    PYTHONPATH=clients/python python3 clients/python/examples/board_example.py ws://127.0.0.1:8080/sync

(PYTHONPATH finds the package in this clone; after `pip install ./clients/python`
it is not needed.) From `import asyncio` on, this file is the example of
../README.md, line for line: tests/test_example.py checks that they are equal,
and runs this file against a real server. Change both together.
"""

import asyncio
import sys

from statesync_client import StateSyncClient, StateSyncError


async def print_hits(client: StateSyncClient) -> None:
    async for hits in client.watch("/counters/hits"):       # the value now, then after each change
        print("hits:", hits)                                # None, 1, 3 (a slower reader skips to the newest)


async def main(url: str) -> None:
    async with StateSyncClient(url, name="py") as client:
        watching = asyncio.create_task(print_hits(client))
        todos = await client.subscribe("/todos")            # todos.value, todos.rev: the mirror
        stop = await client.observe("/todos/0/title", lambda title, rev: print(f"rev {rev}: first title {title}"))
        rev = await client.dispatch({"type": "addTodo", "title": "Milk"})
        print(f"added at rev {rev}:", todos.value[-1])      # its patch came before the ack
        await client.dispatch({"type": "increment", "counter": "hits"})
        await client.dispatch({"type": "increment", "counter": "hits", "by": 2})
        try:
            await client.dispatch({"type": "toggleTodo", "id": "nope"})
        except StateSyncError as error:
            print("rejected:", error.code, error.detail)    # rejected: not_found no todo with id nope
        print("counters:", (await client.get("/counters"))["value"])
        await stop()
    await watching                                          # closing the client ended the watch


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "ws://127.0.0.1:8080/sync"))
