"""RFC 6902 application of all six operations, atomically."""

import pytest

from statesync_client import StateSyncError, apply_patch, format_pointer, parse_pointer


def test_pointers_parse_and_format_with_escapes():
    assert parse_pointer("") == []
    assert parse_pointer("/a~1b/~0c/0") == ["a/b", "~c", "0"]
    assert format_pointer(["a/b", "~c", "0"]) == "/a~1b/~0c/0"
    with pytest.raises(StateSyncError) as error:
        parse_pointer("todos")
    assert error.value.code == "invalid_path"


def test_all_six_operations():
    assert apply_patch({"foo": ["bar", "baz"]}, [{"op": "add", "path": "/foo/1", "value": "qux"}]) == {"foo": ["bar", "qux", "baz"]}
    assert apply_patch({"foo": ["bar"]}, [{"op": "add", "path": "/foo/-", "value": 1}]) == {"foo": ["bar", 1]}
    assert apply_patch({"a": 1, "b": 2}, [{"op": "remove", "path": "/a"}]) == {"b": 2}
    assert apply_patch({"a": 1}, [{"op": "replace", "path": "/a", "value": 2}]) == {"a": 2}
    assert apply_patch({"foo": ["all", "grass", "cows", "eat"]}, [{"op": "move", "from": "/foo/1", "path": "/foo/3"}]) == {
        "foo": ["all", "cows", "eat", "grass"]}
    assert apply_patch({"a": {"b": 1}}, [{"op": "copy", "from": "/a", "path": "/c"}]) == {"a": {"b": 1}, "c": {"b": 1}}
    assert apply_patch({"n": 1}, [{"op": "test", "path": "/n", "value": 1.0}]) == {"n": 1}
    assert apply_patch({"a": 1}, [{"op": "replace", "path": "", "value": None}]) is None


def test_a_failing_patch_changes_nothing_and_names_the_operation():
    doc = {"todos": [{"id": "t1", "done": False}]}
    with pytest.raises(StateSyncError, match=r"operation 1 \(test /todos/0/done\)"):
        apply_patch(doc, [{"op": "add", "path": "/x", "value": 1}, {"op": "test", "path": "/todos/0/done", "value": 0}])
    assert doc == {"todos": [{"id": "t1", "done": False}]}
    with pytest.raises(StateSyncError, match="own child"):
        apply_patch(doc, [{"op": "move", "from": "/todos", "path": "/todos/0/x"}])
    with pytest.raises(StateSyncError, match="out of bounds"):
        apply_patch(doc, [{"op": "remove", "path": "/todos/1"}])


def test_untouched_slices_are_shared():
    doc = {"todos": [{"id": "t1"}, {"id": "t2"}], "counters": {"hits": 1}}
    after = apply_patch(doc, [{"op": "replace", "path": "/todos/1/id", "value": "T2"}])
    assert after["counters"] is doc["counters"]
    assert after["todos"][0] is doc["todos"][0]
    assert doc["todos"][1] == {"id": "t2"}
