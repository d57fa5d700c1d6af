// The child process of the journal's crash tests (JournalCrashTests):
//
//     journal-crash-writer DATA_DIR BATCH_SIZE [BATCHES]
//
// Opens the SQLite journal in DATA_DIR, then appends batches of BATCH_SIZE
// entries after its last revision and prints each acknowledged revision on
// its own line once `append` returned (the entry is durable). Stops after
// BATCHES batches (default: effectively never; the test kills it).
import Foundation
import Logging
import StateSyncCore
import StateSyncJournal
import StateSyncSQLite


let arguments = CommandLine.arguments
guard (3...4).contains(arguments.count), let batchSize = UInt64(arguments[2]), batchSize > 0,
    let batches = arguments.count == 4 ? UInt64(arguments[3]) : 100_000_000
else {
    FileHandle.standardError.write(Data("usage: journal-crash-writer DATA_DIR BATCH_SIZE [BATCHES]\n".utf8))
    exit(64)
}

let journal = try await SQLiteJournal.open(
    configuration: .init(directory: arguments[1]),
    logger: Logger(label: "journal-crash-writer", factory: { _ in SwiftLogNoOpLogHandler() }))
var revision = journal.lastRevision
let padding = String(repeating: "x", count: 160)
for _ in 0..<batches {
    var batch = JournalBatch()
    for _ in 0..<batchSize {
        revision += 1
        let action = #"{"type":"crash","rev":\#(revision),"pad":"\#(padding)"}"#
        batch.entries.append(JournalEntry(
            meta: Meta(revision: revision, clientID: "crash", time: Date(timeIntervalSinceReferenceDate: Double(revision))),
            actionID: "a\(revision)",
            action: Array(action.utf8)))
    }
    try await journal.append(batch)
    FileHandle.standardOutput.write(Data("\(revision)\n".utf8))  // unbuffered: one write(2) per line
}
try await journal.close()
