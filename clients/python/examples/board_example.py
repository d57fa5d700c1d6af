"""A short tour of the Python client against `statesync serve` (the board app).

    swift run statesync serve --memory &
    python3 clients/python/examples/board_example.py ws://127.0.0.1:8080/sync
"""

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from statesync_client import StateSyncClient, StateSyncError  # noqa: E402


async def print_hits(client: StateSyncClient) -> None:
    """Prints the hit counter now and after each change, until the client closes."""
    async for hits in client.watch("/counters/hits"):
        print(f"watch: hits = {hits}")


async def main(url: str) -> None:
    async with StateSyncClient(url, name="python-example") as client:
        print("welcome", client.welcome)
        watching = asyncio.create_task(print_hits(client))
        todos = await client.subscribe("/todos", lambda value, rev: print(f"rev {rev}: {len(value or [])} todos"))
        stop = await client.observe("/todos/0/title", lambda title, rev: print(f"rev {rev}: first title = {title}"))
        rev = await client.dispatch({"type": "addTodo", "title": "Try the Python client"})
        print("added at rev", rev, "->", todos.value[-1])
        await client.dispatch({"type": "increment", "counter": "hits", "by": 3})
        try:
            await client.dispatch({"type": "toggleTodo", "id": "nope"})
        except StateSyncError as error:
            print("rejected:", error.code, error.detail)
        await asyncio.sleep(0.2)
        await stop()
    await watching  # closing the client ended the watch


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "ws://127.0.0.1:8080/sync"))
