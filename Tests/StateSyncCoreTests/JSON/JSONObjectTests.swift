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
