import Testing
import StateSyncCore

@Suite struct JSONPatchDiffTests {
    private static func todos(_ count: Int) -> JSONValue {
        .array((0..<count).map { ["id": .string("t\($0)"), "title": .string("Todo \($0)"), "done": false] })
    }

    private func pointer(_ text: String) throws -> JSONPointer {
        try JSONPointer(parsing: text)
    }

    private func expectDiff(_ old: JSONValue, _ new: JSONValue, is expected: String) throws {
        let patch = JSONPatch.diff(from: old, to: new)
        #expect(patch.jsonValue == (try JSONValue(parsing: expected)))
        #expect(try patch.applied(to: old) == new)
    }

    @Test func equalValuesGiveNoOperations() {
        let value: JSONValue = ["a": [1, ["b": 2]]]
        #expect(JSONPatch.diff(from: value, to: value).isEmpty)
        #expect(JSONPatch.diff(from: value, to: ["a": [1.0, ["b": 2]]]).isEmpty)
    }

    @Test func objectsAreDiffedByKey() throws {
        try expectDiff(
            ["keep": 1, "change": 1, "drop": 1, "nested": ["x": 1]],
            ["keep": 1, "change": 2, "add": 1, "nested": ["x": 2]],
            is: #"[{"op":"replace","path":"/change","value":2},{"op":"remove","path":"/drop"},"#
                + #"{"op":"replace","path":"/nested/x","value":2},{"op":"add","path":"/add","value":1}]"#
        )
    }

    @Test func aKeyRespelledInAnotherUnicodeFormIsRemovedThenAdded() throws {
        let old: JSONValue = .object(JSONObject([("\u{E9}", 1), ("f", 2)]))
        let new: JSONValue = .object(JSONObject([("e\u{301}", 1), ("f", 2)]))
        let patch = JSONPatch.diff(from: old, to: new)
        #expect(patch.operations.map(\.name) == ["remove", "add"])
        #expect(try patch.applied(to: old) == new)
    }

    @Test func differentKindsAreReplacedWhole() throws {
        try expectDiff(["a": [1]], ["a": ["x": 1]], is: #"[{"op":"replace","path":"/a","value":{"x":1}}]"#)
        try expectDiff([1], "text", is: #"[{"op":"replace","path":"","value":"text"}]"#)
    }

    @Test func keysNeedingEscapesAppearEscapedInPaths() throws {
        try expectDiff(["a/b": 1, "m~n": 1], ["a/b": 2, "m~n": 1], is: #"[{"op":"replace","path":"/a~1b","value":2}]"#)
    }

    @Test func insertingAtTheFrontOfAThousandTodosIsOneAdd() throws {
        let old = Self.todos(1000)
        var values = old.arrayValue!
        values.insert(["id": "new", "title": "New", "done": false], at: 0)
        try expectDiff(old, .array(values), is: #"[{"op":"add","path":"/0","value":{"done":false,"id":"new","title":"New"}}]"#)
    }

    @Test func removingOneTodoIsOneRemove() throws {
        let old = Self.todos(1000)
        var values = old.arrayValue!
        values.remove(at: 500)
        try expectDiff(old, .array(values), is: #"[{"op":"remove","path":"/500"}]"#)
    }

    @Test func aChangedTodoGivesOperationsInsideIt() throws {
        let old = Self.todos(1000)
        var new = old
        new[700]?["done"] = true
        try expectDiff(old, new, is: #"[{"op":"replace","path":"/700/done","value":true}]"#)
    }

    @Test func idArraysHandleRemovalsInsertionsAndChangesTogether() throws {
        let old: JSONValue = [["id": 1, "v": "a"], ["id": 2, "v": "b"], ["id": 3, "v": "c"], ["id": 4, "v": "d"]]
        let new: JSONValue = [["id": 1, "v": "a"], ["id": 5, "v": "e"], ["id": 3, "v": "C"], ["id": 6, "v": "f"], ["id": 4, "v": "d"]]
        try expectDiff(old, new, is: #"[{"op":"remove","path":"/1"},{"op":"add","path":"/1","value":{"id":5,"v":"e"}},"#
            + #"{"op":"replace","path":"/2/v","value":"C"},{"op":"add","path":"/3","value":{"id":6,"v":"f"}}]"#)
    }

    @Test func reorderedItemsFallBackToPositionsAndStillApply() throws {
        let old: JSONValue = [["id": 1], ["id": 2], ["id": 3]]
        let new: JSONValue = [["id": 3], ["id": 2], ["id": 1]]
        try expectDiff(old, new, is: #"[{"op":"replace","path":"/0","value":{"id":3}},{"op":"replace","path":"/2","value":{"id":1}}]"#)
    }

    @Test func plainArraysTrimCommonPrefixAndSuffix() throws {
        try expectDiff([1, 2, 3, 4], [1, 9, 4], is: #"[{"op":"replace","path":"/1","value":9},{"op":"remove","path":"/2"}]"#)
        try expectDiff([1, 2, 3], [1, 5, 6, 2, 3], is: #"[{"op":"add","path":"/1","value":5},{"op":"add","path":"/2","value":6}]"#)
        try expectDiff([1, 2, 3, 4], [1, 4], is: #"[{"op":"remove","path":"/2"},{"op":"remove","path":"/1"}]"#)
        try expectDiff([], [1, 2], is: #"[{"op":"add","path":"/0","value":1},{"op":"add","path":"/1","value":2}]"#)
    }

    @Test func focusedDiffUsesPathsRelativeToThePointer() throws {
        let old: JSONValue = ["counters": ["hits": 3], "todos": Self.todos(3)]
        var new = old
        new["counters"]?["hits"] = 4
        new["todos"]?[1]?["title"] = "Renamed"
        let counters = JSONPatch.diff(from: old, to: new, at: try pointer("/counters"))
        #expect(counters.jsonValue == (try JSONValue(parsing: #"[{"op":"replace","path":"/hits","value":4}]"#)))
        let hits = JSONPatch.diff(from: old, to: new, at: try pointer("/counters/hits"))
        #expect(hits.jsonValue == (try JSONValue(parsing: #"[{"op":"replace","path":"","value":4}]"#)))
        let todo = JSONPatch.diff(from: old, to: new, at: try pointer("/todos/1"))
        #expect(todo.jsonValue == (try JSONValue(parsing: #"[{"op":"replace","path":"/title","value":"Renamed"}]"#)))
        #expect(JSONPatch.diff(from: old, to: new, at: try pointer("/todos/0")).isEmpty)
    }

    @Test func focusedValueAppearingOrDisappearingIsAReplaceOfTheRoot() throws {
        let without: JSONValue = ["a": 1]
        let with: JSONValue = ["a": 1, "b": ["x": 1]]
        let path = try pointer("/b")
        let appear = JSONPatch.diff(from: without, to: with, at: path)
        #expect(appear == JSONPatch([.replace(path: .root, value: ["x": 1])]))
        let disappear = JSONPatch.diff(from: with, to: without, at: path)
        #expect(disappear == JSONPatch([.replace(path: .root, value: nil)]))
        #expect(try disappear.applied(to: ["x": 1]) == nil)
        #expect(JSONPatch.diff(from: without, to: without, at: try pointer("/nothing/here")).isEmpty)
    }
}
