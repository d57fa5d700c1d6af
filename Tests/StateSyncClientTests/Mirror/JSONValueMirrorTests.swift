import StateSyncCore
import Testing

@testable import StateSyncClient

@Suite struct JSONValueMirrorTests {
    @Test(arguments: [
        (JSONValue.object([:]), "/counters/hits", JSONValue(3), JSONValue.object(["counters": ["hits": 3]])),
        (["todos": ["a", "b"]], "/todos/1", "B", ["todos": ["a", "B"]]),
        (["todos": "x"], "/todos/t", true, ["todos": ["t": true]]),
        (["a": 1], "", ["b": 2], ["b": 2]),
    ] as [(JSONValue, String, JSONValue, JSONValue)])
    func setsValuesCreatingObjectsOnTheWay(document: JSONValue, path: String, value: JSONValue, expected: JSONValue) throws {
        var document = document
        document.setMirrored(value, at: try JSONPointer(parsing: path))
        #expect(document == expected)
    }
}
