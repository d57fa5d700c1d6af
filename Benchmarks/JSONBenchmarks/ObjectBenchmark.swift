import StateSyncCore

/// The cost of `JSONObject` operations by object size: parsing and
/// serializing an object of `n` keys, looking a key up, comparing two equal
/// objects, and inserting and then removing one key in an object that
/// another copy still shares (what the server's mirror does on a presence
/// join among `n` sessions, with the previous revision still published).
enum ObjectBenchmark {
    static let sizes = [4, 16, 64, 256, 1_000, 10_000]

    static func run() throws {
        print("")
        print("MemoryLayout<JSONValue>.size = \(MemoryLayout<JSONValue>.size), MemoryLayout<JSONObject>.size = \(MemoryLayout<JSONObject>.size)")
        Timing.printTableHead(
            "JSONObject by size (ns per operation)",
            columns: ["keys", "parse", "serialize", "lookup", "==", "insert + remove in a shared object"]
        )
        for size in sizes {
            let object = JSONObject((0..<size).map { ("session-\($0 * 7919 % size)", ["name": .string("client \($0)"), "since": .integer(Int64($0))]) })
            let text = JSONSerializer().serialize(.object(object))
            let parsed = try JSONParser().parse(text)
            let batch = max(1, 100_000 / size)
            let parse = try Timing.bestNanoseconds(iterations: batch) { blackHole(try JSONParser().parse(text)) }
            var buffer: [UInt8] = []
            let serialize = Timing.bestNanoseconds(iterations: batch) {
                buffer.removeAll(keepingCapacity: true)
                JSONSerializer().serialize(parsed, into: &buffer)
                blackHole(buffer.count)
            }
            let probes = (0..<64).map { "session-\($0 * 31 % size)" }
            let lookup = Timing.bestNanoseconds(iterations: 2_000) {
                for key in probes { blackHole(object[key]) }
            } / Double(probes.count)
            let copy = JSONObject(Array(object.map { ($0.key, $0.value) }))
            let equal = Timing.bestNanoseconds(iterations: batch) { blackHole(copy == object) }
            var current = object
            var shared = current
            let change = Timing.bestNanoseconds(iterations: max(10, 20_000 / size)) {
                shared = current
                current["session-new"] = ["name": "new", "since": 0]
                current["session-new"] = nil
            }
            blackHole(shared)
            print("| \(size) | \(Timing.format(parse)) | \(Timing.format(serialize)) | \(Timing.format(lookup)) | "
                + "\(Timing.format(equal)) | \(Timing.format(change)) |")
        }
    }
}
