import Testing
import StateSyncCore

@Suite struct JSONObjectTests {
    @Test func keysStaySortedByUTF8WhateverTheInsertionOrder() {
        var object = JSONObject()
        for key in ["zeta", "alpha", "Beta", "é", "a"] {
            object[key] = .null
        }
        #expect(Array(object.keys) == ["Beta", "a", "alpha", "zeta", "é"])
    }

    @Test func settingNilRemovesTheKey() {
        var object = JSONObject()
        object["a"] = .integer(1)
        object["a"] = nil
        #expect(object.isEmpty)
    }
}

@Suite struct JSONObjectCollectionTests {
    @Test func pairsInitializerKeepsTheLastOfRepeatedKeys() {
        let object = JSONObject([("b", 2), ("a", 1), ("b", 3)])
        #expect(Array(object.keys) == ["a", "b"])
        #expect(object["b"] == .integer(3))
        let literal: JSONObject = ["x": 1, "x": 2]
        #expect(literal["x"] == .integer(2))
    }

    @Test func canonicallyEquivalentKeysAreOneKey() {
        let object = JSONObject([("\u{E9}", 1), ("f", 2), ("e\u{301}", 3)])
        #expect(object.count == 2)
        #expect(object["\u{E9}"] == .integer(3))
    }

    @Test(arguments: [("K", "\u{212A}"), ("\u{212A}", "K"), ("\u{E9}t\u{E9}", "e\u{301}te\u{301}"), ("a;b", "a\u{37E}b")])
    func aLargeObjectFindsAKeyUnderAnEquivalentSpelling(stored: String, asked: String) {
        var object = JSONObject((0..<1_000).map { ("key-\($0)", JSONValue.integer(Int64($0))) })
        object[stored] = "stored"
        #expect(object[asked] == "stored")
        object[asked] = "replaced"
        #expect(object.count == 1_001)
        #expect(object.keys.contains(stored))
        #expect(object[stored] == "replaced")
        #expect(object.removeValue(forKey: asked) == "replaced")
        #expect(object[stored] == nil && object.count == 1_000)
    }

    @Test func iteratesPairsInKeyOrder() {
        let object: JSONObject = ["b": 2, "a": 1, "c": 3]
        #expect(object.map(\.key) == ["a", "b", "c"])
        #expect(object.map(\.value) == [1, 2, 3])
        #expect(object[1].key == "b")
    }

    @Test func equalityAndHashingIgnoreInsertionOrder() {
        var left = JSONObject()
        left["a"] = 1
        left["b"] = 2
        var right = JSONObject()
        right["b"] = 2.0
        right["a"] = 1
        #expect(left == right)
        #expect(left.hashValue == right.hashValue)
        right["a"] = 5
        #expect(left != right)
    }

    @Test func removeValueReturnsTheOldValue() {
        var object: JSONObject = ["a": 1]
        #expect(object.removeValue(forKey: "a") == .integer(1))
        #expect(object.removeValue(forKey: "a") == nil)
    }

    @Test func storageIdentityFollowsCopyOnWrite() {
        let object: JSONObject = ["a": 1, "b": 2]
        var copy = object
        #expect(copy.isIdentical(to: object))
        copy["a"] = 1
        #expect(copy == object)
        #expect(!copy.isIdentical(to: object))
        #expect(JSONObject().isIdentical(to: JSONObject()))
    }
}

@Suite struct JSONObjectModelTests {
    /// Random inserts, updates and removals agree with a `Dictionary` and
    /// keep the keys sorted by UTF-8 bytes.
    @Test func behavesLikeADictionaryWithSortedKeys() {
        var random = RandomJSON(seed: 11)
        var object = JSONObject()
        var model: [String: JSONValue] = [:]
        for _ in 0..<5000 {
            let key = "k\(random.below(200))" + (random.chance(10) ? "é" : "")
            if random.chance(30) {
                #expect(object.removeValue(forKey: key) == model.removeValue(forKey: key))
            } else {
                let value = random.scalar()
                object[key] = value
                model[key] = value
            }
        }
        #expect(object.count == model.count)
        #expect(Array(object.keys) == model.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        for (key, value) in object { #expect(model[key] == value) }
        #expect(object == JSONObject(model.map { ($0.key, $0.value) }))
    }
}
