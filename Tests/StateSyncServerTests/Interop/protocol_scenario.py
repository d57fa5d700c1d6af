#!/usr/bin/env python3
"""A protocol scenario run by a real client written elsewhere (Python `websockets`)
against a StateSync server: hello, subscribe, dispatch, patch, ack, reject, error.

Usage: protocol_scenario.py ws://127.0.0.1:PORT/sync
Exits 0 when every step matched docs/PROTOCOL.md, 1 with a message otherwise.
"""
import asyncio
import json
import sys

import websockets


def check(condition, message):
    if not condition:
        print("FAILED: " + message, file=sys.stderr)
        sys.exit(1)


async def receive(ws, expected_type):
    message = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
    check(message.get("type") == expected_type, f"expected {expected_type}, got {message}")
    return message


async def main(url):
    async with websockets.connect(url, subprotocols=["statesync.v1"]) as ws:
        check(ws.subprotocol == "statesync.v1", f"subprotocol {ws.subprotocol}")
        response = getattr(ws, "response", None)
        headers = response.headers if response is not None else ws.response_headers
        extensions = headers.get("Sec-WebSocket-Extensions", "")
        check("permessage-deflate" in extensions, f"permessage-deflate not negotiated: {extensions!r}")
        await ws.send(json.dumps({"type": "hello", "clientId": "py-1", "name": "python"}))
        welcome = await receive(ws, "welcome")
        check(welcome["role"] == "writer" and welcome["server"] == "statesync/0.1.0", f"welcome {welcome}")

        await ws.send(json.dumps({"type": "subscribe", "id": "s1", "path": "/todos"}))
        snapshot = await receive(ws, "snapshot")
        check(snapshot["id"] == "s1" and snapshot["value"] == [], f"snapshot {snapshot}")

        await ws.send(json.dumps({"type": "dispatch", "id": "a1", "action": {"type": "addTodo", "title": "Milk"}}))
        patch = await receive(ws, "patch")
        check(patch["id"] == "s1" and patch["base"] == snapshot["rev"], f"patch {patch}")
        check(patch["ops"][0]["value"]["title"] == "Milk", f"patch ops {patch['ops']}")
        ack = await receive(ws, "ack")
        check(ack["id"] == "a1" and ack["rev"] == patch["rev"], f"ack {ack} after {patch}")

        await ws.send(json.dumps({"type": "dispatch", "id": "a2", "action": {"type": "toggleTodo", "id": "nope"}}))
        reject = await receive(ws, "reject")
        check(reject["id"] == "a2" and reject["code"] == "not_found", f"reject {reject}")

        await ws.send("this is not json")
        error = await receive(ws, "error")
        check(error["code"] == "bad_json", f"error {error}")

        await ws.send(json.dumps({"type": "get", "id": "g1", "path": "/todos/0/title"}))
        value = await receive(ws, "value")
        check(value["value"] == "Milk", f"value {value}")

        await ws.send(json.dumps({"type": "unsubscribe", "id": "s1"}))
        await receive(ws, "unsubscribed")
    print("ok")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
