import Foundation
import StateSyncCore

/// Serialize throughput: our serializer against Foundation's, all with
/// sorted keys (the deterministic output StateSync needs).
enum SerializeBenchmark {
    static func run(_ documents: [(name: String, value: JSONValue)]) throws {
        print("")
        print("## Serialize (MB/s of compact JSON text produced)")
        print("| document | StateSync JSONSerializer | JSONSerialization | JSONEncoder(JSONValue) | ours / JSONSerialization | ours / JSONEncoder |")
        print("|---|---:|---:|---:|---:|---:|")
        for document in documents {
            let text = JSONSerializer().serialize(document.value)
            let foundationObject = try JSONSerialization.jsonObject(with: Data(text))
            var buffer: [UInt8] = []
            buffer.reserveCapacity(text.count)
            let sample = Timing.bestNanoseconds(rounds: 1, iterations: 1) { blackHole(JSONSerializer().serialize(document.value)) }
            let iterations = Timing.iterations(forSample: sample)
            let ours = Timing.bestNanoseconds(iterations: iterations) {
                buffer.removeAll(keepingCapacity: true)
                JSONSerializer().serialize(document.value, into: &buffer)
                blackHole(buffer.count)
            }
            let serialization = try Timing.bestNanoseconds(iterations: max(1, iterations / 64)) {
                blackHole(try JSONSerialization.data(withJSONObject: foundationObject, options: [.sortedKeys]))
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let encoded = try Timing.bestNanoseconds(iterations: max(1, iterations / 16)) {
                blackHole(try encoder.encode(document.value))
            }
            let speeds = [ours, serialization, encoded].map { Timing.megabytesPerSecond(bytes: text.count, nanoseconds: $0) }
            print("| \(document.name) | \(Timing.format(speeds[0])) | \(Timing.format(speeds[1])) | \(Timing.format(speeds[2])) | "
                + "\(Timing.format(serialization / ours, digits: 2))x | \(Timing.format(encoded / ours, digits: 2))x |")
        }
    }
}
