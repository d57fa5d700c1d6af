"""examples/board_example.py, the README's example, run as a user would against
a real `statesync serve` (see conftest.py): it must finish and print what it
promises, and the README must show the file as it is."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

from statesync_client import StateSyncClient

from support import TIMEOUT, run

PACKAGE = Path(__file__).resolve().parents[1]
EXAMPLE = PACKAGE / "examples" / "board_example.py"
README = PACKAGE / "README.md"


def readme_example() -> str:
    """The code block of the README's "Example" section."""
    section = README.read_text().split("\n## Example\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"^```python\n(.*?)^```$", section, re.MULTILINE | re.DOTALL)
    assert len(blocks) == 1, f"the README's Example section has {len(blocks)} python blocks, not 1"
    return blocks[0]


def run_example(url: str) -> str:
    """Runs the example with this Python, the package found by PYTHONPATH as the
    README says; returns its stdout (a non-zero exit or a hang fails the test)."""
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(PACKAGE), os.environ.get("PYTHONPATH")])))
    try:
        done = subprocess.run([sys.executable, str(EXAMPLE), url], capture_output=True, text=True,
                              timeout=4 * TIMEOUT, env=environment, cwd=PACKAGE.parents[1])
    except subprocess.TimeoutExpired as expired:
        raise AssertionError(f"examples/board_example.py did not finish within {expired.timeout} s: {expired.stdout!r}") from None
    assert done.returncode == 0, f"examples/board_example.py exited {done.returncode}: {done.stderr}"
    return done.stdout


def test_the_readme_shows_the_example_file_from_its_imports_on():
    example, block = EXAMPLE.read_text(), readme_example()
    assert block.startswith("import asyncio\n")
    assert example.endswith("\n" + block), "the README's example and examples/board_example.py differ: change both together"
    header = ast.parse(example[: -len(block)])
    assert len(header.body) == 1 and ast.get_docstring(header) is not None, "before the README's part, the file has only its docstring"


def test_the_example_adds_a_todo_counts_is_refused_with_a_code_and_exits(server):
    output = run_example(server.url)
    lines = output.splitlines()

    added = [re.fullmatch(r"added at rev (\d+): (\{.*\})", line) for line in lines]
    assert [m for m in added if m], f"no 'added at rev' line in {output!r}"
    match = next(m for m in added if m)
    rev = int(match.group(1))
    assert ast.literal_eval(match.group(2)) == {"id": f"t{rev}", "title": "Milk", "done": False, "priority": "normal"}
    assert f"rev {rev}: first title Milk" in lines, "the observer of /todos/0/title saw the new todo at its revision"
    assert "rejected: not_found no todo with id nope" in lines
    assert "counters: {'hits': 3}" in lines
    main_lines = [line for line in lines if line.startswith(("added at", "rejected:", "counters:"))]
    assert [line.split(" ", 1)[0] for line in main_lines] == ["added", "rejected:", "counters:"]

    # The watch yields the value now, then after each change; a slower reader may skip
    # one, but the last change comes before the client closes and is never skipped.
    hits = [line.removeprefix("hits: ") for line in lines if line.startswith("hits: ")]
    assert hits and hits[-1] == "3", f"the watch's values {hits} end with 3"
    assert hits == [value for value in ["None", "1", "3"] if value in hits], f"the watch's values {hits} go None, 1, 3"

    async def on_the_server():
        async with StateSyncClient(server.url) as client:
            assert (await client.get("/todos"))["value"] == [{"id": f"t{rev}", "title": "Milk", "done": False, "priority": "normal"}]
            assert (await client.get("/counters/hits"))["value"] == 3

    run(on_the_server())
