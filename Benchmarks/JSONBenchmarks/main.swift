import StateSyncCore

// JSON benchmarks: parse and serialize throughput against Foundation's
// JSONSerialization, JSONDecoder and JSONEncoder, measured in the same run,
// the cost of diffing a one-field change as the state grows, and JSONObject
// operations by object size, and JSON Pointer edits of a document held once.
//
//     swift run -c release json-benchmarks [parse] [serialize] [diff] [codable] [objects] [pointer]
//
// With no arguments every section runs. Each figure is the best of 5 rounds.

let requested = Set(CommandLine.arguments.dropFirst())
let documents = [("1 KB", 1_000), ("100 KB", 100_000), ("10 MB", 10_000_000)].map { name, bytes in
    (name: name, value: BoardDocument.make(targetBytes: bytes))
}

print("JSON benchmarks (best of 5 rounds per figure)")
if requested.isEmpty || requested.contains("parse") {
    try ParseBenchmark.run(documents)
}
if requested.isEmpty || requested.contains("serialize") {
    try SerializeBenchmark.run(documents)
}
if requested.isEmpty || requested.contains("diff") {
    try DiffBenchmark.run(documents)
}
if requested.isEmpty || requested.contains("codable") {
    try CodableBenchmark.run(documents)
}
if requested.isEmpty || requested.contains("objects") {
    try ObjectBenchmark.run()
}
if requested.isEmpty || requested.contains("pointer") {
    try PointerEditBenchmark.run()
}
