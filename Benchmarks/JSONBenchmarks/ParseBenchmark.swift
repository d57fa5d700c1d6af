import Foundation
import StateSyncCore

/// Parse throughput: our parser against Foundation's on the same bytes.
enum ParseBenchmark {
    static func run(_ documents: [(name: String, value: JSONValue)]) throws {
        print("")
        print("## Parse (MB/s of compact JSON text)")
        print("| document | bytes | StateSync JSONParser | JSONSerialization | JSONDecoder → JSONValue | ours / JSONSerialization | ours / JSONDecoder |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for document in documents {
            let bytes = JSONSerializer().serialize(document.value)
            let data = Data(bytes)
            let sample = try Timing.bestNanoseconds(rounds: 1, iterations: 1) { blackHole(try JSONParser().parse(bytes)) }
            let iterations = Timing.iterations(forSample: sample)
            let ours = try Timing.bestNanoseconds(iterations: iterations) { blackHole(try JSONParser().parse(bytes)) }
            let serialization = try Timing.bestNanoseconds(iterations: max(1, iterations / 8)) {
                blackHole(try JSONSerialization.jsonObject(with: data))
            }
            let decoder = try Timing.bestNanoseconds(iterations: max(1, iterations / 32)) {
                blackHole(try JSONDecoder().decode(JSONValue.self, from: data))
            }
            let speeds = [ours, serialization, decoder].map { Timing.megabytesPerSecond(bytes: bytes.count, nanoseconds: $0) }
            print("| \(document.name) | \(bytes.count) | \(Timing.format(speeds[0])) | \(Timing.format(speeds[1])) | "
                + "\(Timing.format(speeds[2])) | \(Timing.format(serialization / ours, digits: 2))x | "
                + "\(Timing.format(decoder / ours, digits: 2))x |")
        }
    }
}
