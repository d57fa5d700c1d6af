import Testing
import StateSyncCore

/// `JSONArray` against a plain `[JSONValue]` model, across the sizes where
/// its storage changes form (flat up to 256 elements, chunks above), with
/// versions that share chunks and then diverge.
@Suite(.timeLimit(.minutes(2))) struct JSONArrayVersionModelTests {
    /// One version: the array and what it should hold.
    struct Version {
        var array = JSONArray()
        var model: [JSONValue] = []
    }

    /// Applies one random operation to `version`, the same to the array and
    /// to the model.
    static func step(_ version: inout Version, _ random: inout RandomJSON) {
        let count = version.model.count
        switch random.below(10) {
        case 0, 1, 2:
            let position = random.below(count + 1)
            let value = random.item(depth: 1)
            version.array.insert(value, at: position)
            version.model.insert(value, at: position)
        case 3:
            let value = random.scalar()
            version.array.append(value)
            version.model.append(value)
        case 4, 5, 6:
            guard count > 0 else { return }
            let position = random.below(count)
            #expect(version.array.remove(at: position) == version.model.remove(at: position))
        case 7, 8:
            guard count > 0 else { return }
            let position = random.below(count)
            let value = random.item(depth: 1)
            version.array[position] = value
            version.model[position] = value
        default:
            let lower = random.below(count + 1)
            let upper = lower + random.below(min(count - lower, 80) + 1)
            let replacement = random.items(count: random.below(80), depth: 0)
            version.array.replaceSubrange(lower..<upper, with: replacement)
            version.model.replaceSubrange(lower..<upper, with: replacement)
        }
    }

    static func check(_ version: Version) {
        #expect(version.array.count == version.model.count)
        #expect(Array(version.array) == version.model)
        #expect(version.array.indices.map { version.array[$0] } == version.model)
        #expect(version.array == JSONArray(version.model))
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func randomOperationsMatchThePlainArray(seed: UInt64) {
        var random = RandomJSON(seed: seed)
        var version = Version()
        // Grow past the chunking threshold, then wander around it.
        for round in 0..<3_000 {
            if round < 600, random.chance(60) {
                let value = random.scalar()
                version.array.append(value)
                version.model.append(value)
            } else {
                Self.step(&version, &random)
            }
            if round % 50 == 0 { Self.check(version) }
        }
        Self.check(version)
    }

    @Test(arguments: [UInt64(11), 12, 13])
    func sharedVersionsDivergeWithoutDisturbingEachOther(seed: UInt64) {
        var random = RandomJSON(seed: seed)
        var base = Version()
        for _ in 0..<(JSONArray.chunkingThreshold * 3) {
            let value = random.item(depth: 1)
            base.array.append(value)
            base.model.append(value)
        }
        #expect(base.array.isChunked)
        var versions = [base]
        for _ in 0..<400 {
            var version = versions[random.below(versions.count)]
            Self.step(&version, &random)
            versions.append(version)
            if versions.count > 12 { versions.remove(at: random.below(versions.count)) }
        }
        for version in versions { Self.check(version) }
        Self.check(base)
    }

    @Test(arguments: [UInt64(21), 22, 23])
    func serializesAndParsesBackToTheSameArray(seed: UInt64) throws {
        var random = RandomJSON(seed: seed)
        var version = Version()
        for _ in 0..<900 { Self.step(&version, &random) }
        for _ in 0..<600 {
            let value = random.item(depth: 2)
            version.array.insert(value, at: random.below(version.array.count + 1))
        }
        let bytes = JSONSerializer().serialize(.array(version.array))
        #expect(bytes == JSONSerializer().serialize(.array(Array(version.array))))
        let parsed = try JSONParser().parse(bytes)
        #expect(parsed == .array(version.array))
        #expect(parsed.arrayValue?.isChunked == version.array.isChunked)
    }

    @Test(arguments: [UInt64(31), 32, 33, 34])
    func diffOfSharedVersionsEqualsTheDiffOfPlainCopies(seed: UInt64) throws {
        var random = RandomJSON(seed: seed)
        var old = Version()
        for _ in 0..<(JSONArray.chunkingThreshold * 4) {
            let id = JSONValue.string("t\(old.model.count)")
            let item: JSONValue = ["id": id, "title": random.scalar()]
            old.array.append(item)
            old.model.append(item)
        }
        for _ in 0..<20 {
            var new = old
            for _ in 0..<(1 + random.below(3)) { Self.step(&new, &random) }
            let shared = JSONPatch.diff(from: .array(old.array), to: .array(new.array))
            let plain = JSONPatch.diff(from: .array(JSONArray(old.model)), to: .array(JSONArray(new.model)))
            #expect(shared == plain)
            var patched = JSONValue.array(old.model)
            try shared.apply(to: &patched)
            #expect(patched == .array(new.model))
            old = new
        }
    }
}
