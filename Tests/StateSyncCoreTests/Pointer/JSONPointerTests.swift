import Testing
import StateSyncCore

@Suite struct JSONPointerTests {
    /// The document of RFC 6901 §5.
    static let rfcDocument: JSONValue = [
        "foo": ["bar", "baz"],
        "": 0,
        "a/b": 1,
        "c%d": 2,
        "e^f": 3,
        "g|h": 4,
        "i\\j": 5,
        "k\"l": 6,
        " ": 7,
        "m~n": 8,
    ]

    @Test(arguments: [
        ("", rfcDocument),
        ("/foo", ["bar", "baz"]),
        ("/foo/0", "bar"),
        ("/", 0),
        ("/a~1b", 1),
        ("/c%d", 2),
        ("/e^f", 3),
        ("/g|h", 4),
        ("/i\\j", 5),
        ("/k\"l", 6),
        ("/ ", 7),
        ("/m~0n", 8),
    ] as [(String, JSONValue)])
    func resolvesTheRFC6901Examples(text: String, expected: JSONValue) throws {
        let pointer = try JSONPointer(parsing: text)
        #expect(Self.rfcDocument[pointer] == expected)
        #expect(pointer.description == text)
    }

    @Test(arguments: [
        ("", [String]()),
        ("/", [""]),
        ("/a/b", ["a", "b"]),
        ("/a~1b/m~0n", ["a/b", "m~n"]),
        ("/~01", ["~1"]),
        ("//", ["", ""]),
        ("/é/😀", ["é", "😀"]),
    ])
    func parsesAndFormatsTokens(text: String, tokens: [String]) throws {
        let pointer = try JSONPointer(parsing: text)
        #expect(pointer.tokens == tokens)
        #expect(JSONPointer(tokens: tokens).description == text)
    }

    @Test(arguments: [
        ("a", #"invalid JSON pointer "a": it must be empty or start with "/""#),
        ("#/a", ##"invalid JSON pointer "#/a": it must be empty or start with "/""##),
        ("/a~2", #"invalid JSON pointer "/a~2": "~" at byte 2 must be followed by "0" or "1""#),
        ("/a~", #"invalid JSON pointer "/a~": "~" at byte 2 must be followed by "0" or "1""#),
        ("/~/x", #"invalid JSON pointer "/~/x": "~" at byte 1 must be followed by "0" or "1""#),
    ])
    func rejectsMalformedPointers(text: String, message: String) {
        let error = #expect(throws: JSONPointerError.self) { try JSONPointer(parsing: text) }
        #expect(error?.description == message)
        #expect(error?.isMalformedPointer == true)
    }

    @Test func navigatesParentsAndPrefixes() throws {
        let pointer = try JSONPointer(parsing: "/todos/0/title")
        #expect(pointer.parent == (try JSONPointer(parsing: "/todos/0")))
        #expect(pointer.lastToken == "title")
        #expect(JSONPointer.root.parent == nil)
        #expect(JSONPointer.root.lastToken == nil)
        #expect(JSONPointer.root.isRoot)
        #expect(JSONPointer.root.appending("todos").appending(index: 0).appending("title") == pointer)
        #expect(JSONPointer.root.appending("a/b").description == "/a~1b")
        let todos = try JSONPointer(parsing: "/todos")
        #expect(todos.isPrefix(of: pointer))
        #expect(pointer.isPrefix(of: pointer))
        #expect(JSONPointer.root.isPrefix(of: pointer))
        #expect(!pointer.isPrefix(of: todos))
        #expect(!(try JSONPointer(parsing: "/todo")).isPrefix(of: pointer))
        #expect(todos.relativePath(to: pointer) == (try JSONPointer(parsing: "/0/title")))
        #expect(pointer.relativePath(to: todos) == nil)
        #expect(todos.appending(try JSONPointer(parsing: "/0/title")) == pointer)
    }

    @Test(arguments: [
        ("0", JSONPointer.ArrayIndex.position(0)),
        ("7", .position(7)),
        ("123", .position(123)),
        ("-", .end),
        ("01", nil),
        ("00", nil),
        ("-1", nil),
        ("+1", nil),
        ("1.0", nil),
        ("", nil),
        ("a", nil),
        ("99999999999999999999999", nil),
    ] as [(String, JSONPointer.ArrayIndex?)])
    func readsArrayIndicesStrictly(token: String, expected: JSONPointer.ArrayIndex?) {
        #expect(JSONPointer.arrayIndex(token) == expected)
    }

    @Test func lookupFollowsArrayIndexRules() throws {
        let document: JSONValue = ["list": [10, 20]]
        #expect(document[try JSONPointer(parsing: "/list/1")] == 20)
        #expect(document[try JSONPointer(parsing: "/list/2")] == nil)
        #expect(document[try JSONPointer(parsing: "/list/-")] == nil)
        #expect(document[try JSONPointer(parsing: "/list/01")] == nil)
        #expect(document[try JSONPointer(parsing: "/list/0/x")] == nil)
        #expect(document[try JSONPointer(parsing: "/missing")] == nil)
    }

    @Test func codesAsItsTextForm() throws {
        let pointer = try JSONPointer(parsing: "/a~1b/0")
        let encoded = try JSONValueEncoder().encode(pointer)
        #expect(encoded == "/a~1b/0")
        #expect(try JSONValueDecoder().decode(JSONPointer.self, from: encoded) == pointer)
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(JSONPointer.self, from: "nope") }
    }
}
