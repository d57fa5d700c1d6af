import StateSyncCore
@testable import StateSyncServer
import Testing

/// The state's size estimate: exact for JSON without doubles or escapes,
/// and kept up to date from changes alone.
@Suite struct EncodedSizeTests {
    private static let sample: JSONValue = [
        "todos": [["id": "t1", "title": "Milk", "done": false], ["id": "t2", "title": "Eggs", "done": true]],
        "counters": ["hits": 12, "misses": -3, "zero": 0],
        "chat": [], "presence": [:], "nothing": .null,
    ]

    @Test func theEstimateIsTheSerializedSizeWithoutDoublesOrEscapes() {
        for value in [Self.sample, [], [:], "text", 1_234_567, -9, true, .null] as [JSONValue] {
            #expect(value.estimatedJSONBytes() == JSONSerializer().serialize(value).count, "\(value)")
        }
    }

    @Test func theWalkStopsPastTheLimit() {
        let large = JSONValue.array(Array(repeating: .string(String(repeating: "x", count: 100)), count: 10_000))
        let estimate = large.estimatedJSONBytes(upTo: 1_000)
        #expect(estimate > 1_000)
        // It stopped after ~10 elements (the brackets and commas are counted first).
        #expect(estimate < 10_001 + 1_300)
        #expect(large.estimatedJSONBytes() == 1_030_001)
    }

    @Test func growthIsTheDifferenceOfTheEstimates() throws {
        var changed = Self.sample
        try changed.replace(at: JSONPointer(parsing: "/counters/hits"), with: 1_000)
        try changed.add("a new message", at: JSONPointer(parsing: "/chat/-"))
        try changed.remove(at: JSONPointer(parsing: "/todos/0"))
        try changed.add(["name": "alice"], at: JSONPointer(parsing: "/presence/s-1"))
        try changed.remove(at: JSONPointer(parsing: "/nothing"))
        let growth = changed.estimatedJSONBytesGrowth(from: Self.sample)
        #expect(growth == changed.estimatedJSONBytes() - Self.sample.estimatedJSONBytes())
        #expect(Self.sample.estimatedJSONBytesGrowth(from: Self.sample) == 0)
    }
}
