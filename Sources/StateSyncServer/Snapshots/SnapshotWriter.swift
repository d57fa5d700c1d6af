import Logging
import StateSyncCore
import StateSyncJournal

/// Writes snapshots off the sequencer: it serializes a published state and
/// saves it to the journal in a task of its own, so a large state never
/// stalls the sequencer (invariant: whole-state work does not run there).
///
/// At most one save runs at a time; a state handed over while one runs
/// waits, and a newer one replaces it (only the latest matters). A failed
/// save is logged: the journal still holds every entry, recovery just
/// replays more.
final class SnapshotWriter: Sendable {
    private let requests: AsyncStream<(state: JSONValue, revision: UInt64)>.Continuation
    private let task: Task<Void, Never>

    /// A writer saving to `journal`.
    init(journal: any Journal, logger: Logger) {
        let (stream, requests) = AsyncStream.makeStream(
            of: (state: JSONValue, revision: UInt64).self, bufferingPolicy: .bufferingNewest(1))
        self.requests = requests
        // Awaited by `finish()`.
        task = Task {
            for await request in stream {
                let bytes = JSONSerializer().serialize(request.state)
                do {
                    try await journal.saveSnapshot(JournalSnapshot(revision: request.revision, state: bytes))
                    logger.debug("snapshot saved", metadata: ["rev": "\(request.revision)", "bytes": "\(bytes.count)"])
                } catch {
                    logger.error("saving a snapshot failed", metadata: ["rev": "\(request.revision)", "error": "\(error)"])
                }
            }
        }
    }

    /// Saves `state` at `revision` soon; returns at once.
    func save(_ state: JSONValue, at revision: UInt64) {
        requests.yield((state, revision))
    }

    /// Waits until every state handed over has been saved; later ones are ignored.
    func finish() async {
        requests.finish()
        await task.value
    }
}
