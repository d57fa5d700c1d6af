import Logging
import StateSyncJournal
import Synchronization

/// A ``GroupCommitStorage`` that answers each commit with the next of the
/// outcomes a test scripted (``committed`` once the script is used up),
/// and records what it was asked.
final class ScriptedStorage: GroupCommitStorage {
    enum Step {
        case outcome(GroupCommitOutcome)
        case fail(any Error)
    }

    private struct State {
        var script: [Step]
        var commits: [(revisions: [UInt64], seen: UInt64)] = []
        var head: UInt64 = 0
        var idleCalls: [Bool] = []
        var released = false
    }

    private let state: Mutex<State>

    init(_ script: [Step], head: UInt64 = 0) {
        state = Mutex(State(script: script, head: head))
    }

    /// The revisions of each group committed (or tried), with the revision it followed.
    var commits: [(revisions: [UInt64], seen: UInt64)] { state.withLock { $0.commits } }
    /// Whether ``release()`` ran.
    var released: Bool { state.withLock { $0.released } }
    /// The `closing` argument of each ``idle(closing:)``.
    var idleCalls: [Bool] { state.withLock { $0.idleCalls } }

    func commit(_ group: [GroupCommitQueue.Work], after seen: UInt64) async throws -> GroupCommitOutcome {
        let step = state.withLock { state -> Step in
            state.commits.append((group.batches.flatMap { $0.entries.map(\.revision) }, seen))
            return state.script.isEmpty ? .outcome(.committed) : state.script.removeFirst()
        }
        switch step {
        case .outcome(let outcome): return outcome
        case .fail(let error): throw error
        }
    }

    func storedHead() async throws -> UInt64 { state.withLock { $0.head } }

    func idle(closing: Bool) async { state.withLock { $0.idleCalls.append(closing) } }

    func release() async -> Result<Void, JournalError> {
        state.withLock { $0.released = true }
        return .success(())
    }
}

/// A logger that prints nothing.
let quietLogger = Logger(label: "statesync.journal-tests", factory: { _ in SwiftLogNoOpLogHandler() })
