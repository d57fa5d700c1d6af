import Foundation
import StateSyncCore

// JSON benchmarks: parse and serialize throughput against Foundation's
// JSONSerialization, JSONDecoder and JSONEncoder, measured in the same run,
// and the cost of diffing a one-field change as the state grows.
//
//     swift run -c release json-benchmarks [parse] [serialize] [diff]
//
// With no arguments every section runs.

let requested = Set(CommandLine.arguments.dropFirst())
func runs(_ section: String) -> Bool { requested.isEmpty || requested.contains(section) }

let sizes: [(name: String, bytes: Int)] = [("1 KB", 1_000), ("100 KB", 100_000), ("10 MB", 10_000_000)]
let documents = sizes.map { (name: $0.name, value: BoardDocument.make(targetBytes: $0.bytes)) }

print("JSON benchmarks (best of 5 rounds per figure)")
if runs("parse") {
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
    let serialization = try Timing.bestNanoseconds(iterations: max(1, iterations / 4)) {
        blackHole(try JSONSerialization.jsonObject(with: data))
    }
    let decoder = try Timing.bestNanoseconds(iterations: max(1, iterations / 8)) {
        blackHole(try JSONDecoder().decode(JSONValue.self, from: data))
    }
    let speeds = [ours, serialization, decoder].map { Timing.megabytesPerSecond(bytes: bytes.count, nanoseconds: $0) }
    print("| \(document.name) | \(bytes.count) | \(Timing.format(speeds[0])) | \(Timing.format(speeds[1])) | "
        + "\(Timing.format(speeds[2])) | \(Timing.format(serialization / ours, digits: 2))x | \(Timing.format(decoder / ours, digits: 2))x |")
}

}

if runs("serialize") {
print("")
print("## Serialize (MB/s of compact JSON text produced)")
print("| document | StateSync JSONSerializer | JSONSerialization | JSONEncoder(JSONValue) | ours / JSONSerialization | ours / JSONEncoder |")
print("|---|---:|---:|---:|---:|---:|")
for document in documents {
    let byteCount = JSONSerializer().serialize(document.value).count
    let foundationObject = try JSONSerialization.jsonObject(with: Data(JSONSerializer().serialize(document.value)))
    var buffer: [UInt8] = []
    buffer.reserveCapacity(byteCount)
    let sample = Timing.bestNanoseconds(rounds: 1, iterations: 1) { blackHole(JSONSerializer().serialize(document.value)) }
    let iterations = Timing.iterations(forSample: sample)
    let ours = Timing.bestNanoseconds(iterations: iterations) {
        buffer.removeAll(keepingCapacity: true)
        JSONSerializer().serialize(document.value, into: &buffer)
        blackHole(buffer.count)
    }
    let serialization = try Timing.bestNanoseconds(iterations: max(1, iterations / 4)) {
        blackHole(try JSONSerialization.data(withJSONObject: foundationObject, options: [.sortedKeys]))
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let encoded = try Timing.bestNanoseconds(iterations: max(1, iterations / 8)) {
        blackHole(try encoder.encode(document.value))
    }
    let speeds = [ours, serialization, encoded].map { Timing.megabytesPerSecond(bytes: byteCount, nanoseconds: $0) }
    print("| \(document.name) | \(Timing.format(speeds[0])) | \(Timing.format(speeds[1])) | \(Timing.format(speeds[2])) | "
        + "\(Timing.format(serialization / ours, digits: 2))x | \(Timing.format(encoded / ours, digits: 2))x |")
}

}

if runs("diff") {
print("")
print("## Diff of a one-field change (ns per JSONPatch.diff; new state shares storage with the old)")
print("| document | todos | counter change (ns) | todo toggle in the middle (ns) | focused diff at /counters/hits (ns) |")
print("|---|---:|---:|---:|---:|")
var counterTimes: [Double] = []
var toggleTimes: [Double] = []
for document in documents {
    let old = document.value
    var counterChanged = old
    counterChanged["counters"]?["hits"] = 1
    let todoCount = old["todos"]!.arrayValue!.count
    var toggled = old
    toggled["todos"]?[todoCount / 2]?["done"] = .bool(!(old["todos"]![todoCount / 2]!["done"]!.boolValue!))
    precondition(JSONPatch.diff(from: old, to: counterChanged).operations.count == 1)
    precondition(JSONPatch.diff(from: old, to: toggled).operations.count == 1)
    let hits = try JSONPointer(parsing: "/counters/hits")
    let counter = Timing.bestNanoseconds(iterations: 200_000) { blackHole(JSONPatch.diff(from: old, to: counterChanged)) }
    let toggleSample = Timing.bestNanoseconds(rounds: 1, iterations: 1) { blackHole(JSONPatch.diff(from: old, to: toggled)) }
    let toggle = Timing.bestNanoseconds(iterations: Timing.iterations(forSample: toggleSample, budget: 0.1)) {
        blackHole(JSONPatch.diff(from: old, to: toggled))
    }
    let focused = Timing.bestNanoseconds(iterations: 200_000) { blackHole(JSONPatch.diff(from: old, to: counterChanged, at: hits)) }
    counterTimes.append(counter)
    toggleTimes.append(toggle)
    print("| \(document.name) | \(todoCount) | \(Timing.format(counter)) | \(Timing.format(toggle)) | \(Timing.format(focused)) |")
}
print("")
print("Ratio 10 MB / 1 KB: counter change \(Timing.format(counterTimes.last! / counterTimes.first!, digits: 2))x, "
    + "todo toggle \(Timing.format(toggleTimes.last! / toggleTimes.first!, digits: 0))x")
}
