import Testing
import StateSyncCore

/// `JSONObject` against a plain model, across the sizes where its storage
/// changes form (flat up to 64 keys, a tree of shared nodes above), with
/// versions that share structure and then diverge.
@Suite(.timeLimit(.minutes(2))) struct JSONObjectVersionModelTests {
    /// The reference: the keys in an array sorted by their UTF-8 bytes, and
    /// a `Dictionary` (which compares keys with Swift `String` equality, as
    /// `JSONObject` does) from each key to the spelling stored first and its
    /// value.
    struct SortedModel {
        private var sortedKeys: [String] = []
        private var stored: [String: (key: String, value: JSONValue)] = [:]

        /// The entries in key order, each under the spelling stored first.
        var entries: [(key: String, value: JSONValue)] {
            sortedKeys.map { ($0, stored[$0]!.value) }
        }

        func value(forKey key: String) -> JSONValue? {
            stored[key]?.value
        }

        mutating func set(_ key: String, _ value: JSONValue) {
            if let existing = stored[key] {
                stored[key] = (existing.key, value)
            } else {
                sortedKeys.insert(key, at: position(of: key))
                stored[key] = (key, value)
            }
        }

        mutating func remove(_ key: String) -> JSONValue? {
            guard let existing = stored.removeValue(forKey: key) else { return nil }
            sortedKeys.remove(at: position(of: existing.key))
            return existing.value
        }

        /// Where `key` is or would go in `sortedKeys` (a binary search on the
        /// UTF-8 bytes).
        private func position(of key: String) -> Int {
            var low = 0
            var high = sortedKeys.count
            while low < high {
                let middle = (low + high) / 2
                if sortedKeys[middle].utf8.lexicographicallyPrecedes(key.utf8) { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    /// One version: the object and what it should hold.
    struct Version {
        var object = JSONObject()
        var model = SortedModel()
    }

    /// Keys from a pool large enough for trees several levels deep, with a
    /// few non-ASCII spellings, including canonically equivalent pairs
    /// ("é" precomposed and decomposed; the Kelvin sign and "K").
    static func randomKey(_ random: inout RandomJSON, in window: Range<Int>?) -> String {
        if let window { return "key-\(window.lowerBound + random.below(window.count))" }
        switch random.below(100) {
        case 0: return "caf\u{E9}"
        case 1: return "cafe\u{301}"
        case 2: return "\u{212A}"
        case 3: return "K"
        case 4..<8: return "é-\(random.below(50))"
        default: return "key-\(random.below(6_000))"
        }
    }

    /// One random step on `version`: insert, replace, remove, in-place
    /// update or lookup, checked against the model as it goes; keys from
    /// `window` only when given (a run of neighbouring keys).
    static func step(_ version: inout Version, _ random: inout RandomJSON, removalPercent: Int, window: Range<Int>? = nil) {
        let key = randomKey(&random, in: window)
        switch random.below(100) {
        case ..<removalPercent:
            #expect(version.object.removeValue(forKey: key) == version.model.remove(key))
        case removalPercent..<(removalPercent + 10):
            let updated = version.object.withValue(forKey: key) { value in
                value = .integer(7)
                return true
            }
            #expect((updated ?? false) == (version.model.value(forKey: key) != nil))
            if updated != nil { version.model.set(key, .integer(7)) }
        case (removalPercent + 10)..<(removalPercent + 25):
            #expect(version.object[key] == version.model.value(forKey: key))
        default:
            let value = random.scalar()
            version.object[key] = value
            version.model.set(key, value)
        }
    }

    /// Every read of the object agrees with the model.
    static func check(_ version: Version) {
        let object = version.object
        let entries = version.model.entries
        #expect(object.count == entries.count)
        #expect(object.isEmpty == entries.isEmpty)
        #expect(Array(object.keys) == entries.map(\.key))
        #expect(Array(object.values) == entries.map(\.value))
        #expect(object.keyArray == entries.map(\.key))
        #expect(object.valueArray == entries.map(\.value))
        #expect(object.map(\.key) == entries.map(\.key))
        #expect(object.map(\.value) == entries.map(\.value))
        for position in stride(from: 0, to: entries.count, by: max(1, entries.count / 50)) {
            #expect(object[position].key == entries[position].key)
            #expect(object[object.index(object.startIndex, offsetBy: position)].value == entries[position].value)
        }
        for entry in entries.prefix(20) { #expect(object[entry.key] == entry.value) }
        let rebuilt = JSONObject(entries.map { ($0.key, $0.value) })
        #expect(object == rebuilt)
        #expect(object.hashValue == rebuilt.hashValue)
        let text = JSONSerializer().serialize(.object(object))
        #expect(text == JSONSerializer().serialize(.object(rebuilt)))
        #expect((try? JSONParser().parse(text)) == .object(object))
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func versionsThatShareAndDivergeAgreeWithTheModel(seed: UInt64) {
        var random = RandomJSON(seed: seed)
        var current = Version()
        var saved: [Version] = []
        // Grow past the flat size to a tree of three levels (over 64
        // leaves); empty one run of neighbouring keys (nodes there merge
        // with, or refill from, fuller neighbours); shrink back to a flat
        // object; grow again: every form and every rebalance.
        let phases: [(steps: Int, removalPercent: Int, window: Range<Int>?)] = [
            (9_000, 10, nil), (6_000, 75, 1_000..<3_000), (15_000, 70, nil), (3_000, 15, nil),
        ]
        for (steps, removalPercent, window) in phases {
            for index in 0..<steps {
                Self.step(&current, &random, removalPercent: removalPercent, window: window)
                if index % 1_500 == 0 {
                    saved.append(current)
                    #expect(saved[saved.count - 1].object.isIdentical(to: current.object))
                    Self.check(current)
                }
                if index % 500 == 250, !saved.isEmpty {
                    // An older version diverges from the current one.
                    let which = random.below(saved.count)
                    for _ in 0..<20 { Self.step(&saved[which], &random, removalPercent: 40) }
                }
            }
        }
        Self.check(current)
        for version in saved { Self.check(version) }
        // The diff between versions (walking shared trees side by side)
        // turns one into the other.
        for (old, new) in zip(saved, saved.dropFirst() + [current]) {
            var document = JSONValue.object(old.object)
            #expect(throws: Never.self) { try JSONPatch.diff(from: document, to: .object(new.object)).apply(to: &document) }
            #expect(document == .object(new.object))
        }
    }

    @Test func aCopyIsUnchangedByChangesToTheOriginal() {
        let keys = (0..<1_000).map { "key-\($0)" }
        var object = JSONObject(keys.map { ($0, JSONValue.integer(1)) })
        let copy = object
        #expect(copy.isIdentical(to: object))
        object["key-500"] = 2
        object["new"] = 3
        object["key-1"] = nil
        #expect(!copy.isIdentical(to: object))
        #expect(copy.count == 1_000 && object.count == 1_000)
        #expect(copy["key-500"] == 1 && copy["new"] == nil && copy["key-1"] == 1)
        #expect(object["key-500"] == 2 && object["new"] == 3 && object["key-1"] == nil)
    }
}
