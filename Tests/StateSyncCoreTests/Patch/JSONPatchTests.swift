import Testing
import StateSyncCore

@Suite struct JSONPatchTests {
    /// RFC 6902 Appendix A: (section, document, patch, expected result or
    /// nil when applying must fail).
    static let appendixA: [(String, String, String, String?)] = [
        ("A.1", #"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz","value":"qux"}]"#, #"{"baz":"qux","foo":"bar"}"#),
        ("A.2", #"{"foo":["bar","baz"]}"#, #"[{"op":"add","path":"/foo/1","value":"qux"}]"#, #"{"foo":["bar","qux","baz"]}"#),
        ("A.3", #"{"baz":"qux","foo":"bar"}"#, #"[{"op":"remove","path":"/baz"}]"#, #"{"foo":"bar"}"#),
        ("A.4", #"{"foo":["bar","qux","baz"]}"#, #"[{"op":"remove","path":"/foo/1"}]"#, #"{"foo":["bar","baz"]}"#),
        ("A.5", #"{"baz":"qux","foo":"bar"}"#, #"[{"op":"replace","path":"/baz","value":"boo"}]"#, #"{"baz":"boo","foo":"bar"}"#),
        ("A.6", #"{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}"#,
         #"[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]"#,
         #"{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}"#),
        ("A.7", #"{"foo":["all","grass","cows","eat"]}"#, #"[{"op":"move","from":"/foo/1","path":"/foo/3"}]"#,
         #"{"foo":["all","cows","eat","grass"]}"#),
        ("A.8", #"{"baz":"qux","foo":["a",2,"c"]}"#,
         #"[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]"#,
         #"{"baz":"qux","foo":["a",2,"c"]}"#),
        ("A.9", #"{"baz":"qux"}"#, #"[{"op":"test","path":"/baz","value":"bar"}]"#, nil),
        ("A.10", #"{"foo":"bar"}"#, #"[{"op":"add","path":"/child","value":{"grandchild":{}}}]"#,
         #"{"foo":"bar","child":{"grandchild":{}}}"#),
        ("A.11", #"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz","value":"qux","xyz":123}]"#, #"{"foo":"bar","baz":"qux"}"#),
        ("A.12", #"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz/bat","value":"qux"}]"#, nil),
        ("A.14", #"{"/":9,"~1":10}"#, #"[{"op":"test","path":"/~01","value":10}]"#, #"{"/":9,"~1":10}"#),
        ("A.15", #"{"/":9,"~1":10}"#, #"[{"op":"test","path":"/~01","value":"10"}]"#, nil),
        ("A.16", #"{"foo":["bar"]}"#, #"[{"op":"add","path":"/foo/-","value":["abc","def"]}]"#,
         #"{"foo":["bar",["abc","def"]]}"#),
    ]

    @Test(arguments: appendixA)
    func appliesTheRFC6902Examples(section: String, document: String, patch: String, expected: String?) throws {
        let original = try JSONValue(parsing: document)
        var target = original
        let parsed = try JSONPatch(jsonValue: JSONValue(parsing: patch))
        if let expected {
            try parsed.apply(to: &target)
            #expect(target == (try JSONValue(parsing: expected)), "\(section)")
        } else {
            #expect(throws: JSONPatchError.self, "\(section)") { try parsed.apply(to: &target) }
            #expect(target == original, "\(section): a failed patch changes nothing")
        }
    }

    @Test func rejectsTheInvalidPatchOfAppendixA13() {
        // A.13: a repeated "op" member makes the patch document invalid JSON
        // for this parser, which rejects duplicate keys.
        let error = #expect(throws: JSONParseError.self) {
            try JSONValue(parsing: #"[{"op":"add","path":"/baz","value":"qux","op":"remove"}]"#)
        }
        #expect(error?.description == #"duplicate key "op" in the object starting at byte 1"#)
    }

    @Test func failureIsAtomicAndNamesTheOperation() throws {
        var document: JSONValue = ["a": ["b": 1], "list": [1]]
        let original = document
        let patch = JSONPatch([
            .add(path: try JSONPointer(parsing: "/new"), value: true),
            .remove(path: try JSONPointer(parsing: "/list/0")),
            .replace(path: try JSONPointer(parsing: "/a/c"), value: 2),
        ])
        let error = #expect(throws: JSONPatchError.self) { try patch.apply(to: &document) }
        #expect(error?.description == "operation 2 (replace /a/c): path does not exist: /a/c")
        #expect(error?.operationIndex == 2)
        #expect(document == original)
    }

    @Test(arguments: [
        (#"[{"op":"test","path":"/a","value":2}]"#, "operation 0 (test /a): test failed: the value at /a is 1, not 2"),
        (#"[{"op":"move","from":"/a","path":"/a/b"}]"#, "operation 0 (move /a/b): cannot move /a into its own child /a/b"),
        (#"[{"op":"copy","from":"/zz","path":"/b"}]"#, "operation 0 (copy /b): path does not exist: /zz"),
        (#"[{"op":"test","path":"/zz","value":1}]"#, "operation 0 (test /zz): path does not exist: /zz"),
        (#"[{"op":"remove","path":""}]"#, #"operation 0 (remove ""): cannot remove the whole document"#),
    ])
    func applyErrorsSayWhatWentWrong(patch: String, message: String) throws {
        var document: JSONValue = ["a": 1]
        let parsed = try JSONPatch(jsonValue: JSONValue(parsing: patch))
        let error = #expect(throws: JSONPatchError.self) { try parsed.apply(to: &document) }
        #expect(error?.description == message)
    }

    @Test func moveAndCopyWork() throws {
        var document: JSONValue = ["a": ["x": 1], "b": [:]]
        try JSONPatch([
            .copy(from: try JSONPointer(parsing: "/a"), path: try JSONPointer(parsing: "/b/copy")),
            .move(from: try JSONPointer(parsing: "/a/x"), path: try JSONPointer(parsing: "/moved")),
            .move(from: try JSONPointer(parsing: "/moved"), path: try JSONPointer(parsing: "/moved")),
        ]).apply(to: &document)
        #expect(document == ["a": [:], "b": ["copy": ["x": 1]], "moved": 1])
    }

    @Test func replacesTheRootWithAnyValue() throws {
        let patch = JSONPatch([.replace(path: .root, value: [1, 2])])
        #expect(try patch.applied(to: ["a": 1]) == [1, 2])
    }

    @Test func codesAsTheRFCArrayThroughBothCodingPaths() throws {
        let text = #"[{"op":"add","path":"/a~1b","value":{"x":[1]}},{"op":"remove","path":"/c"},"#
            + #"{"from":"/d","op":"move","path":"/e"},{"from":"/f","op":"copy","path":"/g"},"#
            + #"{"op":"replace","path":"","value":null},{"op":"test","path":"/h","value":2.5}]"#
        let json = try JSONValue(parsing: text)
        let patch = try JSONPatch(jsonValue: json)
        #expect(patch.operations.count == 6)
        #expect(patch.operations[0] == .add(path: JSONPointer(tokens: ["a/b"]), value: ["x": [1]]))
        #expect(patch.jsonValue == json)
        #expect(patch.description == (try JSONValue(parsing: text)).description)
        #expect(try JSONValueEncoder().encode(patch) == json)
        #expect(try JSONValueDecoder().decode(JSONPatch.self, from: json) == patch)
    }

    @Test(arguments: [
        (#"{"op":"add"}"#, "malformed JSON patch: a patch must be an array, not an object"),
        (#"[{"op":"add","path":"/a"}]"#, #"malformed JSON patch: operation 0 (add /a): missing "value""#),
        (#"[{"path":"/a"}]"#, #"malformed JSON patch: operation 0: missing "op""#),
        (#"[{"op":"jump","path":"/a"}]"#, #"malformed JSON patch: operation 0: unknown op "jump""#),
        (#"[{"op":"remove","path":"a"}]"#, #"malformed JSON patch: operation 0 (remove): invalid JSON pointer "a": it must be empty or start with "/""#),
        (#"[{"op":"move","path":"/a"}]"#, #"malformed JSON patch: operation 0 (move): missing "from""#),
        (#"[1]"#, "malformed JSON patch: operation 0: an operation must be an object, not a number"),
    ])
    func malformedPatchesAreRejectedClearly(text: String, message: String) throws {
        let json = try JSONValue(parsing: text)
        let error = #expect(throws: JSONPatchError.self) { try JSONPatch(jsonValue: json) }
        #expect(error?.description == message)
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(JSONPatch.self, from: json) }
    }
}
