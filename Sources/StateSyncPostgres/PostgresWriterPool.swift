import Logging
import NIOCore
import StateSyncJournal
import Synchronization

/// The writer connections a node's stores share for their group commits
/// (``PostgresStores/Configuration/writerConnections``): a store's transaction holds one
/// only while it runs or keeps a turn. Slots are ``ReconnectingConnection``s, and one goes
/// back outside any transaction (the storage rolls back or drops it first).
final class PostgresWriterPool: Sendable {
    /// A slot taken by one transaction until ``PostgresWriterPool/giveBack(_:)``.
    struct Lease: Sendable {
        fileprivate let slot: Int
        /// The slot's connection.
        let connection: ReconnectingConnection
    }

    private struct State {
        var free: [Int]
        var waiting: [CheckedContinuation<Int?, Never>] = []
        var closed = false
    }

    private let slots: [ReconnectingConnection]
    private let state: Mutex<State>

    /// A pool of `count` connections opened by `connector` (at least 1),
    /// the first of them `first`, already open; the others open when first leased.
    init(first: TimedConnection, count: Int, connector: PostgresConnector, logger: Logger) {
        var slots = [ReconnectingConnection(first, role: "writer", connector: connector, logger: logger)]
        for index in 1..<max(1, count) {
            slots.append(ReconnectingConnection(
                role: "writer", id: index + 10, timeout: first.timeout, connector: connector, logger: logger))
        }
        self.slots = slots
        state = Mutex(State(free: Array(slots.indices)))
    }

    /// Takes a free slot, waiting for one when every slot is leased.
    ///
    /// - Throws: ``JournalError/closed`` once the pool is closed.
    func lease() async throws -> Lease {
        let taken: Int? = await withCheckedContinuation { continuation in
            let now: Int?? = state.withLock { state in
                if state.closed { return .some(nil) }
                if let slot = state.free.popLast() { return .some(slot) }
                state.waiting.append(continuation)
                return .none
            }
            if let now { continuation.resume(returning: now) }
        }
        guard let taken else { throw JournalError.closed }
        return Lease(slot: taken, connection: slots[taken])
    }

    /// Returns a leased slot: to the first store waiting, else to the free ones.
    func giveBack(_ lease: Lease) {
        let waiter: CheckedContinuation<Int?, Never>? = state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.free.append(lease.slot)
                return nil
            }
            return state.waiting.removeFirst()
        }
        waiter?.resume(returning: lease.slot)
    }

    /// Refuses further leases and closes every slot's connection; the
    /// stores' journals are closed already.
    func close() async throws {
        let waiting = state.withLock { state in
            state.closed = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for waiter in waiting { waiter.resume(returning: nil) }
        var failure: (any Error)?
        for slot in slots {
            do {
                try await slot.close()
            } catch {
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
    }
}
