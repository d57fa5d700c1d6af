// Start-up of a store one app schema version behind (BENCHMARKS.md, "App
// schema versions"): a SQLite data directory whose journal keeps N entries
// of version 1 (default 1,000,000) and whose newest snapshot (about 100 MB
// of JSON) is 1,000 entries before the head, opened by the version 2 app
// (the snapshot migrated, the tail upcast while it is replayed), against
// the same directory opened by the version 1 app (current). Each run opens
// its own copy of the directory; runs alternate.
//
//   swift run -c release schema-benchmarks DIR [ENTRIES] [RUNS]
import Foundation
import Logging
import StateSyncCore
import StateSyncJournal
import StateSyncServer
import StateSyncSQLite

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: schema-benchmarks DIR [ENTRIES] [RUNS]\n".utf8))
    exit(2)
}
let directory = arguments[1]
let entryCount = arguments.count > 2 ? Int(arguments[2]) ?? 1_000_000 : 1_000_000
let runs = arguments.count > 3 ? Int(arguments[3]) ?? 3 : 3
let tail = 1_000
let logger = Logger(label: "schema-benchmarks") { _ in SwiftLogNoOpLogHandler() }
let retention = JournalRetention(revisions: UInt64(entryCount) * 2, bytes: 1 << 34, olderSnapshots: 8)

/// The text of item `revision`: 80 characters.
func text(_ revision: Int) -> String {
    let number = String(revision)
    return number + String(repeating: "x", count: 80 - number.count)
}

/// Writes the version 1 directory: `entryCount` entries, a snapshot `tail` entries before the head.
func generate(into path: String) async throws {
    let journal = try await SQLiteJournal.open(
        configuration: SQLiteJournal.Configuration(directory: path, retention: retention), logger: logger)
    let session = SessionInfo(id: "s-1", name: "bench")
    let time = Date(timeIntervalSince1970: 1_800_000_000)
    var items: [JSONValue] = []
    items.reserveCapacity(entryCount)
    var revision = 0
    while revision < entryCount {
        var entries: [JournalEntry] = []
        for _ in 0..<min(1_000, entryCount - revision) {
            revision += 1
            let command = SessionCommand<LedgerV1.Action>.dispatch(.append(text: text(revision)), from: session)
            entries.append(JournalEntry(
                meta: Meta(revision: UInt64(revision), clientID: "c-bench", time: time), actionID: "a\(revision)",
                action: SessionCommandCoding.encode(command), schemaVersion: 1))
            if revision <= entryCount - tail {
                items.append(["id": .string("i\(revision)"), "text": .string(text(revision))])
            }
        }
        try await journal.append(JournalBatch(entries: entries))
        if revision == entryCount - tail {
            let state = JSONSerializer().serialize(["items": .array(items)])
            try await journal.saveSnapshot(JournalSnapshot(revision: UInt64(revision), state: state, schemaVersion: 1))
            print("snapshot at revision \(revision): \(state.count / 1_000_000) MB")
            items = []
        }
    }
    try await journal.close()
}

/// Opens a copy of `base` with `App` and returns the seconds until its engine is ready.
func start<App: StateSyncApp>(_ app: App.Type, copying base: String, into copy: String) async throws -> Double {
    try? FileManager.default.removeItem(atPath: copy)
    try FileManager.default.copyItem(atPath: base, toPath: copy)
    let started = ContinuousClock.now
    let journal = try await SQLiteJournal.open(
        configuration: SQLiteJournal.Configuration(directory: copy, retention: retention), logger: logger)
    let engine = try await SyncEngine<App>(journal: journal, logger: logger)
    let ready = ContinuousClock.now - started
    precondition(engine.revision >= UInt64(entryCount), "the engine is at \(engine.revision), not \(entryCount)")
    await engine.shutdown()
    try? FileManager.default.removeItem(atPath: copy)
    let (seconds, attoseconds) = ready.components
    return Double(seconds) + Double(attoseconds) / 1e18
}

let base = directory + "/base-\(entryCount)"
if !FileManager.default.fileExists(atPath: base + "/statesync.sqlite") {
    print("writing \(entryCount) version 1 entries into \(base) …")
    try await generate(into: base)
}
var current: [Double] = []
var behind: [Double] = []
for run in 1...runs {
    current.append(try await start(LedgerV1.self, copying: base, into: directory + "/run"))
    behind.append(try await start(LedgerV2.self, copying: base, into: directory + "/run"))
    print(String(format: "run %d: current %.2f s, one version behind %.2f s", run, current.last!, behind.last!))
}
let ratios = zip(behind, current).map { $0 / $1 }
print(String(format: "start-up, %d entries: current %.2f–%.2f s; one version behind %.2f–%.2f s (%.2f–%.2fx)",
             entryCount, current.min()!, current.max()!, behind.min()!, behind.max()!, ratios.min()!, ratios.max()!))
