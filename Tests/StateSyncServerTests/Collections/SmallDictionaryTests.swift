import StateSyncTestSupport
import Testing
@testable import StateSyncServer

/// `SmallDictionary` behaves as a `Dictionary` does, whatever its storage:
/// random operations compared against one.
@Suite(.timeLimit(.minutes(1)))
struct SmallDictionaryTests {
    @Test func oneEntryThenSeveralThenOneAgain() {
        var small: SmallDictionary<String, Int> = [:]
        #expect(small.isEmpty)
        small["a"] = 1
        small["a"] = 2
        #expect(small.count == 1)
        #expect(small["a"] == 2)
        #expect(small["b"] == nil)
        small["b"] = 3
        #expect(Dictionary(uniqueKeysWithValues: small.map { ($0.key, $0.value) }) == ["a": 2, "b": 3])
        #expect(small.removeValue(forKey: "a") == 2)
        #expect(small.removeValue(forKey: "a") == nil)
        #expect(Array(small.map(\.key)) == ["b"])
        small["b"] = nil
        #expect(small.isEmpty)
        #expect(small.keys.isEmpty)
    }

    @Test(arguments: 0..<8)
    func matchesADictionaryUnderRandomOperations(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var small = SmallDictionary<Int, Int>()
        var reference: [Int: Int] = [:]
        for step in 0..<2_000 {
            let key = Int.random(in: 0..<4, using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0:
                small[key] = step
                reference[key] = step
            case 1:
                #expect(small.removeValue(forKey: key) == reference.removeValue(forKey: key))
            default:
                small[key] = nil
                reference[key] = nil
            }
            #expect(small[key] == reference[key])
            #expect(small.count == reference.count)
            #expect(Dictionary(uniqueKeysWithValues: small.map { ($0.key, $0.value) }) == reference)
            #expect(Set(small.keys) == Set(reference.keys))
        }
    }

    @Test func copiesAreIndependent() {
        var first: SmallDictionary<String, Int> = ["a": 1, "b": 2]
        let second = first
        first["c"] = 3
        first["a"] = nil
        #expect(second.count == 2)
        #expect(second["a"] == 1)
        #expect(first.count == 2)
    }
}
