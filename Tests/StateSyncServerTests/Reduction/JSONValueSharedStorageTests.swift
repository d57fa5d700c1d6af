import StateSyncCore
import Testing
@testable import StateSyncServer

@Suite struct JSONValueSharedStorageTests {
    @Test func unchangedPartsShareTheOldStorage() throws {
        let old: JSONValue = ["a": ["x": "long string value", "y": [1, 2, 3]], "b": ["z": 1]]
        let new = try JSONParser().parse(#"{"a":{"x":"long string value","y":[1,2,3]},"b":{"z":2}}"#)
        let shared = new.sharingStorage(with: old)
        #expect(shared == new)
        #expect(try #require(shared["a"]).isIdentical(to: try #require(old["a"])))
        #expect(!(try #require(shared["b"]).isIdentical(to: try #require(old["b"]))))
    }

    @Test func anEqualValueIsTheOldValue() throws {
        let old: JSONValue = ["list": [["id": "t1"], ["id": "t2"]]]
        let new = try JSONParser().parse(#"{"list":[{"id":"t1"},{"id":"t2"}]}"#)
        #expect(new.sharingStorage(with: old).isIdentical(to: old))
    }

    @Test(arguments: [("1", "1.0"), ("1.0", "1"), ("\"a\"", "1"), ("[1]", "[1,2]"), ("{\"k\":1}", "{}")])
    func differentRepresentationsAreKept(newText: String, oldText: String) throws {
        let new = try JSONParser().parse(newText)
        let old = try JSONParser().parse(oldText)
        let shared = new.sharingStorage(with: old)
        #expect(JSONSerializer().serialize(shared) == JSONSerializer().serialize(new))
    }
}
