import Foundation

// The journal's workload on two SQLite libraries in one run: GRDB on the
// system's libsqlite3 (side A, what `SQLiteJournal` uses) and vapor/sqlite-nio,
// which builds SQLite from source (side B). Same tables, WAL with
// synchronous = FULL, one transaction per batch. Run:
//   swift run -c release sqlite-engine-benchmarks [DIRECTORY]
// (default: a fresh directory under the system temporary directory; use one
// on the disk the server will use). Prints the tables for BENCHMARKS.md
// ("## Journal and SQLite").

// `--commits A|B|B'|A-sync N DIRECTORY` only commits N single-entry batches
// on one side (A-sync: GRDB's blocking write, no async hop) and exits: run it under `strace -f -c -e trace=fsync,fdatasync` to
// count the syncs per commit of each side.
var arguments = Array(CommandLine.arguments.dropFirst())
var commitsOnly: (side: String, count: Int)?
if arguments.first == "--commits", arguments.count >= 3, let count = Int(arguments[2]) {
    commitsOnly = (arguments[1], count)
    arguments.removeFirst(3)
}
let root = arguments.first ?? NSTemporaryDirectory() + "statesync-sqlite-bench-\(getpid())"
let measuredSeconds = 1.5
let repeats = 3
let replayEntries: Int64 = 100_000
let lookups = 20_000

func seconds(since start: UInt64) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func format(_ value: Double) -> String {
    let digits = String(Int(value.rounded()))
    var grouped = ""
    for (index, digit) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { grouped += "," }
        grouped.append(digit)
    }
    return grouped
}

func ratio(_ candidate: Double, _ baseline: Double) -> String {
    String(format: "%.2fx", candidate / baseline)
}

func freshPath() -> String {
    root + "/bench-\(UUID().uuidString).sqlite"
}

/// Commits batches of `batchSize` on a fresh file for `measuredSeconds`;
/// returns entries/s.
func appendRate<Engine: JournalEngine>(_: Engine.Type, batchSize: Int) async throws -> Double {
    let engine = try await Engine.open(path: freshPath(), create: true)
    var revision: Int64 = 0
    let start = DispatchTime.now().uptimeNanoseconds
    var elapsed = 0.0
    repeat {
        try await engine.commit(JournalWorkload.batch(after: revision, size: batchSize))
        revision += Int64(batchSize)
        elapsed = seconds(since: start)
    } while elapsed < measuredSeconds
    try await engine.close()
    return Double(revision) / elapsed
}

/// Best of `repeats` rounds; within a round the candidates run one after the
/// other, so that all see the same background load.
func bestAlternating(_ candidates: [() async throws -> Double]) async throws -> [Double] {
    var best = Array(repeating: 0.0, count: candidates.count)
    for _ in 0..<repeats {
        for (index, candidate) in candidates.enumerated() {
            best[index] = max(best[index], try await candidate())
        }
    }
    return best
}

/// Pairs that exist in the populated file, in a fixed pseudo-random order.
func lookupPairs() -> [(String, String)] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    return (0..<lookups).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let revision = Int64((state >> 33) % UInt64(replayEntries)) + 1
        return (JournalWorkload.clientID, "a\(revision)")
    }
}

/// Point lookups, one awaited call each; returns lookups/s.
func lookupRate(_ engine: some JournalEngine, _ pairs: [(String, String)]) async throws -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    var found = 0
    for (clientID, actionID) in pairs {
        if try await engine.outcomeRevision(clientID: clientID, actionID: actionID) != nil { found += 1 }
    }
    let elapsed = seconds(since: start)
    guard found == pairs.count else { throw BenchmarkError(description: "found \(found) of \(pairs.count) outcomes") }
    return Double(pairs.count) / elapsed
}

/// One replay of the whole journal; returns entries/s.
func replayRate(_ engine: some JournalEngine) async throws -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    let entries = try await engine.entries(from: 1, through: replayEntries)
    let elapsed = seconds(since: start)
    guard entries.count == replayEntries, entries.last?.action.count ?? 0 > 150 else {
        throw BenchmarkError(description: "replay read \(entries.count) entries")
    }
    return Double(entries.count) / elapsed
}

/// Commits `count` single-entry batches on a fresh file.
func commitOnly<Engine: JournalEngine>(_: Engine.Type, count: Int) async throws {
    let engine = try await Engine.open(path: freshPath(), create: true)
    for revision in 0..<Int64(count) { try await engine.commit(JournalWorkload.batch(after: revision, size: 1)) }
    try await engine.close()
}

try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: root) }  // cleanup of benchmark files only

if let (side, count) = commitsOnly {
    switch side {
    case "A": try await commitOnly(GRDBEngine.self, count: count)
    case "B": try await commitOnly(SQLiteNIOEngine.self, count: count)
    case "A-sync":
        let engine = try await GRDBEngine.open(path: freshPath(), create: true)
        // SLEEP_US: a pause between commits, to see whether the sync's cost depends on the pace.
        let pause = UInt32(ProcessInfo.processInfo.environment["SLEEP_US"] ?? "") ?? 0
        for revision in 0..<Int64(count) {
            try engine.commitSynchronously(JournalWorkload.batch(after: revision, size: 1))
            if pause > 0 { usleep(pause) }
        }
        try await engine.close()
    default: try await commitOnly(SQLiteNIOMultiRowEngine.self, count: count)
    }
    print("\(count) commits on side \(side)")
    try? FileManager.default.removeItem(atPath: root)  // `exit` skips the `defer` above
    exit(0)
}

// MARK: The two libraries

let options = [
    "THREADSAFE", "DEFAULT_CACHE_SIZE", "DEFAULT_PAGE_SIZE", "DEFAULT_SYNCHRONOUS", "DEFAULT_WAL_SYNCHRONOUS",
    "DEFAULT_WAL_AUTOCHECKPOINT", "SECURE_DELETE", "DEFAULT_MEMSTATUS", "MAX_MMAP_SIZE", "DEFAULT_MMAP_SIZE",
    "TEMP_STORE", "DQS", "OMIT_LOAD_EXTENSION", "OMIT_SHARED_CACHE", "ENABLE_FTS5", "COMPILER",
]
let infoA = try await { () async throws -> EngineInfo in
    let engine = try await GRDBEngine.open(path: freshPath(), create: true)
    let info = try await engine.info()
    try await engine.close()
    return info
}()
let infoB = try await { () async throws -> EngineInfo in
    let engine = try await SQLiteNIOEngine.open(path: freshPath(), create: true)
    let info = try await engine.info()
    try await engine.close()
    return info
}()
print("| | A: GRDB 7.10.0, system libsqlite3 | B: sqlite-nio 1.13.2, built from source |")
print("|---|---|---|")
print("| sqlite_version() | \(infoA.version) | \(infoB.version) |")
for pragma in infoA.pragmas.keys.sorted() {
    print("| PRAGMA \(pragma) | \(infoA.pragmas[pragma]!) | \(infoB.pragmas[pragma] ?? "?") |")
}
for option in options {
    func value(_ info: EngineInfo) -> String {
        info.compileOptions.first { $0 == option || $0.hasPrefix(option + "=") } ?? "–"
    }
    print("| \(option) | \(value(infoA)) | \(value(infoB)) |")
}

// MARK: Writes

print("\nAppends (~\(JournalWorkload.batch(after: 0, size: 1)[0].action.count)-byte actions plus an outcome row each),")
print("one transaction (= one fsync) per batch; entries/s, best of \(repeats) runs of \(measuredSeconds) s:\n")
print("| batch | A: GRDB | B: SQLiteNIO, a query per row | B/A | B': SQLiteNIO, multi-row INSERT | B'/A |")
print("|---:|---:|---:|---:|---:|---:|")
for batchSize in [1, 16, 256] {
    let best = try await bestAlternating([
        { try await appendRate(GRDBEngine.self, batchSize: batchSize) },
        { try await appendRate(SQLiteNIOEngine.self, batchSize: batchSize) },
        { try await appendRate(SQLiteNIOMultiRowEngine.self, batchSize: batchSize) },
    ])
    print("| \(batchSize) | \(format(best[0])) | \(format(best[1])) | \(ratio(best[1], best[0]))"
        + " | \(format(best[2])) | \(ratio(best[2], best[0])) |")
}

// MARK: Reads

let readPath = freshPath()
do {
    let writer = try await GRDBEngine.open(path: readPath, create: true)
    var revision: Int64 = 0
    while revision < replayEntries {
        try await writer.commit(JournalWorkload.batch(after: revision, size: 1_000))
        revision += 1_000
    }
    try await writer.checkpoint()
    try await writer.close()
}
let readerA = try await GRDBEngine.open(path: readPath, create: false)
let readerB = try await SQLiteNIOEngine.open(path: readPath, create: false)
let pairs = lookupPairs()
let lookupBest = try await bestAlternating([
    { try await lookupRate(readerA, pairs) },
    { try await lookupRate(readerB, pairs) },
    {
        let start = DispatchTime.now().uptimeNanoseconds
        _ = try await readerA.outcomeRevisionsInOneRead(pairs)
        return Double(pairs.count) / seconds(since: start)
    },
])
let replayBest = try await bestAlternating([
    { try await replayRate(readerA) },
    { try await replayRate(readerB) },
])
try await readerA.close()
try await readerB.close()

print("\nReads of a journal of \(format(Double(replayEntries))) entries (file in the page cache); best of \(repeats):\n")
print("| read | A: GRDB | B: SQLiteNIO | B/A |")
print("|---|---:|---:|---:|")
print("| outcome by (clientId, actionId), one awaited read each, lookups/s | \(format(lookupBest[0]))"
    + " | \(format(lookupBest[1])) | \(ratio(lookupBest[1], lookupBest[0])) |")
print("| replay: entries 1...\(format(Double(replayEntries))) in one read, decoded, entries/s | \(format(replayBest[0]))"
    + " | \(format(replayBest[1])) | \(ratio(replayBest[1], replayBest[0])) |")
print("\nReference: A's \(format(Double(lookups))) lookups inside one read (no hop per lookup): \(format(lookupBest[2])) lookups/s.")
