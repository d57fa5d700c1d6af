import BoardApp
import StateSyncJournal
import StateSyncProtocol
@testable import StateSyncServer
import Testing

/// Two engines on one shared store where A is stale: A settled first, then
/// B started and acknowledged a dispatch `y` (increment `hits`) of its
/// session `s-b` (clientId `bClientID`), which nobody told A of.
struct StaleNode {
    let store: MemoryJournal
    let journalA: SharedMemoryJournal
    let journalB: SharedMemoryJournal
    let a: SyncEngine<Board>
    let onA: RecordingSink
    let b: SyncEngine<Board>
    let onB: RecordingSink
    /// The revision B acknowledged `y` at.
    let revisionOfY: UInt64

    /// The two nodes, after B's write.
    static func make(bClientID: String) async throws -> StaleNode {
        let store = MemoryJournal()
        let (journalA, journalB) = (SharedMemoryJournal(store: store), SharedMemoryJournal(store: store))
        let a = try await boardEngine(journal: journalA)
        let onA = a.joinRecording("s-a", clientID: "c1")
        _ = try await a.value(at: "", session: "s-a", sink: onA)
        let b = try await boardEngine(journal: journalB)
        let onB = b.joinRecording("s-b", clientID: bClientID)
        b.handle(.dispatch(id: "y", action: increment("hits")), from: "s-b")
        guard case .ack(_, let revisionOfY)? = await onB.waitForAnswer("y").last else {
            throw StaleNodeError()
        }
        return StaleNode(store: store, journalA: journalA, journalB: journalB, a: a, onA: onA, b: b, onB: onB, revisionOfY: revisionOfY)
    }

    /// Stops both engines.
    func shutdown() async {
        await a.shutdown()
        await b.shutdown()
    }
}

/// B's dispatch was not acknowledged.
struct StaleNodeError: Error, CustomStringConvertible {
    var description: String { "node B did not acknowledge y" }
}
