import Testing
import StateSyncCore

@Suite struct JSONValueTests {
    @Test func numbersCompareByValueAcrossIntegerAndDouble() {
        #expect(JSONValue.integer(1) == .double(1))
        #expect(JSONValue.double(-0.0) == .integer(0))
        #expect(JSONValue.integer(1) != .double(1.5))
        // 2^53 + 1 is not exactly a double: no false equality through rounding.
        #expect(JSONValue.integer(9_007_199_254_740_993) != .double(9_007_199_254_740_992))
        #expect(JSONValue.integer(1) != .string("1"))
        #expect(JSONValue.bool(true) != .integer(1))
    }

    @Test func equalValuesHashEqually() {
        let pairs: [(JSONValue, JSONValue)] = [
            (.integer(1), .double(1)),
            (.double(-0.0), .integer(0)),
            (["a": 1, "b": [1, 2]], ["b": [1.0, 2.0], "a": 1.0]),
            (.string("é"), .string("é")),
        ]
        for (left, right) in pairs {
            #expect(left == right)
            #expect(left.hashValue == right.hashValue)
        }
        #expect(Set<JSONValue>([.integer(2), .double(2), .double(2.5)]).count == 2)
    }

    @Test func stringsCompareByUTF8BytesNotCanonicalEquivalence() {
        let precomposed = JSONValue.string("\u{E9}")
        let decomposed = JSONValue.string("e\u{301}")
        #expect(precomposed != decomposed)
        #expect(precomposed.hashValue != decomposed.hashValue)
    }

    @Test func literalsBuildTheMatchingCases() {
        let value: JSONValue = ["s": "x", "i": 3, "d": 2.5, "b": true, "n": nil, "a": [1, "two"]]
        #expect(value["s"] == .string("x"))
        #expect(value["i"] == .integer(3))
        #expect(value["d"] == .double(2.5))
        #expect(value["b"] == .bool(true))
        #expect(value["n"] == .null)
        #expect(value["a"] == .array([.integer(1), .string("two")]))
    }

    @Test func typedAccessorsReturnNilForOtherKinds() {
        let value: JSONValue = ["count": 3, "ratio": 0.5, "name": "x", "flag": false, "list": [1], "whole": 4.0]
        #expect(value["count"]?.intValue == 3)
        #expect(value["count"]?.doubleValue == 3)
        #expect(value["whole"]?.intValue == 4)
        #expect(value["ratio"]?.intValue == nil)
        #expect(value["ratio"]?.doubleValue == 0.5)
        #expect(value["name"]?.stringValue == "x")
        #expect(value["name"]?.intValue == nil)
        #expect(value["flag"]?.boolValue == false)
        #expect(value["list"]?.arrayValue == [1])
        #expect(value.objectValue?.count == 6)
        #expect(value["list"]?[0] == 1)
        #expect(value["list"]?[1] == nil)
        #expect(value["missing"] == nil)
        #expect(JSONValue.null.isNull)
        #expect(JSONValue.string("x")["key"] == nil)
    }

    @Test func subscriptSettersChangeInPlace() {
        var value: JSONValue = ["todos": [["done": false]]]
        value["todos"]?[0]?["done"] = true
        value["title"] = "Board"
        #expect(value == ["todos": [["done": true]], "title": "Board"])
        value["title"] = nil
        #expect(value["title"] == nil)
    }

    @Test func descriptionIsCompactJSON() {
        let value: JSONValue = ["b": [1, 2.5, nil], "a": "x\"y"]
        #expect(value.description == #"{"a":"x\"y","b":[1,2.5,null]}"#)
    }

    @Test func identityIsRecognisedForSharedStorageOnly() {
        let big: JSONValue = ["todos": .array((0..<100).map { ["id": .string("t\($0)")] })]
        let copy = big
        #expect(copy.isIdentical(to: big))
        var changed = big
        changed["extra"] = 1
        changed["extra"] = nil
        #expect(changed == big)
        #expect(!changed.isIdentical(to: big))
        // The untouched child still shares storage.
        #expect(changed["todos"]!.isIdentical(to: big["todos"]!))
        #expect(JSONValue.array([]).isIdentical(to: .array([])))
        #expect(!JSONValue.array([1]).isIdentical(to: .array([1])))
    }
}
