// Unit tests of statesync.js' pure parts: JSON Pointer and RFC 6902 patches.
// Run: node --test clients/js/tests (scripts/test does).
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyPatch, parsePointer, formatPointer, valueAt, relativeTokens } from "../statesync.js";

test("pointers parse and format with ~0 and ~1 escapes", () => {
  assert.deepEqual(parsePointer(""), []);
  assert.deepEqual(parsePointer("/a~1b/~0c/0"), ["a/b", "~c", "0"]);
  assert.equal(formatPointer(["a/b", "~c", "0"]), "/a~1b/~0c/0");
  assert.throws(() => parsePointer("todos"), /invalid_path/);
  assert.throws(() => parsePointer("/a~2"), /invalid_path/);
  assert.deepEqual(relativeTokens("/todos", "/todos/0/title"), ["0", "title"]);
  assert.equal(relativeTokens("/todos", "/counters"), null);
});

test("RFC 6902 appendix A examples: add, remove, replace, move, copy, test", () => {
  assert.deepEqual(applyPatch({ foo: "bar" }, [{ op: "add", path: "/baz", value: "qux" }]), { foo: "bar", baz: "qux" });
  assert.deepEqual(applyPatch({ foo: ["bar", "baz"] }, [{ op: "add", path: "/foo/1", value: "qux" }]), { foo: ["bar", "qux", "baz"] });
  assert.deepEqual(applyPatch({ foo: ["bar"] }, [{ op: "add", path: "/foo/-", value: "x" }]), { foo: ["bar", "x"] });
  assert.deepEqual(applyPatch({ baz: "qux", foo: "bar" }, [{ op: "remove", path: "/baz" }]), { foo: "bar" });
  assert.deepEqual(applyPatch({ foo: ["bar", "qux", "baz"] }, [{ op: "remove", path: "/foo/1" }]), { foo: ["bar", "baz"] });
  assert.deepEqual(applyPatch({ baz: "qux", foo: "bar" }, [{ op: "replace", path: "/baz", value: "boo" }]), { baz: "boo", foo: "bar" });
  assert.deepEqual(
    applyPatch({ foo: { bar: "baz", waldo: "fred" }, qux: { corge: "grault" } }, [{ op: "move", from: "/foo/waldo", path: "/qux/thud" }]),
    { foo: { bar: "baz" }, qux: { corge: "grault", thud: "fred" } });
  assert.deepEqual(applyPatch({ foo: ["all", "grass", "cows", "eat"] }, [{ op: "move", from: "/foo/1", path: "/foo/3" }]),
    { foo: ["all", "cows", "eat", "grass"] });
  assert.deepEqual(applyPatch({ a: { b: 1 } }, [{ op: "copy", from: "/a", path: "/c" }]), { a: { b: 1 }, c: { b: 1 } });
  assert.deepEqual(applyPatch({ baz: "qux", foo: ["a", 2, "c"] }, [
    { op: "test", path: "/baz", value: "qux" }, { op: "test", path: "/foo/1", value: 2 }]), { baz: "qux", foo: ["a", 2, "c"] });
  assert.throws(() => applyPatch({ baz: "qux" }, [{ op: "test", path: "/baz", value: "bar" }]), /test failed/);
  assert.deepEqual(applyPatch({ a: 1 }, [{ op: "replace", path: "", value: null }]), null);
  assert.deepEqual(applyPatch(null, [{ op: "replace", path: "", value: [1] }]), [1]);
});

test("a failing patch leaves the document untouched, and errors name the operation", () => {
  const doc = { todos: [{ id: "t1" }] };
  const frozen = JSON.stringify(doc);
  assert.throws(() => applyPatch(doc, [
    { op: "add", path: "/x", value: 1 }, { op: "remove", path: "/todos/5" }]), /operation 1 \(remove \/todos\/5\)/);
  assert.equal(JSON.stringify(doc), frozen);
  assert.throws(() => applyPatch(doc, [{ op: "move", from: "/todos", path: "/todos/0/x" }]), /own child/);
  assert.throws(() => applyPatch(doc, [{ op: "add", path: "/todos/7", value: 1 }]), /out of bounds/);
  assert.throws(() => applyPatch(doc, [{ op: "frobnicate", path: "" }]), /unknown op/);
});

test("untouched slices keep their identity after a patch", () => {
  const doc = { todos: [{ id: "t1", title: "a" }, { id: "t2", title: "b" }], counters: { hits: 1 } };
  const next = applyPatch(doc, [{ op: "replace", path: "/todos/1/title", value: "B" }]);
  assert.equal(next.counters, doc.counters);
  assert.equal(next.todos[0], doc.todos[0]);
  assert.notEqual(next.todos[1], doc.todos[1]);
  assert.equal(valueAt(next, ["todos", "1", "title"]), "B");
  assert.equal(valueAt(next, ["todos", "9"]), undefined);
});
