import Synchronization

/// A patch a subscriber received, waiting to be matched with the actions
/// it carries (their answers may not have reached the writers yet).
struct PendingPatch {
    /// The subscription's path.
    var path: PathTable.ID
    /// The patch's `base` and `rev`: it carries the revisions `base+1…rev`.
    var base: UInt64
    var rev: UInt64
    /// When it arrived (monotonic nanoseconds).
    var arrived: UInt64
    /// The node (index in ``LoadScenario/urls``) the subscriber is connected to.
    var node: Int
}

/// The revision, send time and changed path of each of the run's actions, to match
/// received patches for latency and tell same-node from cross-node deliveries.
/// Shared by every event loop; a `Mutex` guards it (held for one ack or one batch).
final class DeliveryLedger: Sendable {
    private struct Entry {
        var rev: UInt64
        var sent: UInt64
        var path: PathTable.ID
        var node: Int
    }

    private struct State {
        var ring: [Entry]
        var paths = PathTable()
    }

    /// Revisions remembered in all, shared by the stores of a run: 262,144,
    /// over four minutes at 1,000 actions/s. A patch that reaches further
    /// back is matched only with what is left.
    static let runCapacity = 1 << 18
    /// Revisions remembered by one store's ledger at least: 4,096, over six
    /// minutes at 10 actions/s.
    static let storeCapacity = 1 << 12

    /// Revisions this ledger remembers.
    let capacity: Int
    private let state: Mutex<State>

    /// The ledger of one store of a run over `stores` stores: its share of
    /// ``runCapacity``, at least ``storeCapacity`` (32 bytes a revision: a
    /// ledger of the whole capacity for each of 1,000 stores took 8 GiB).
    init(stores: Int = 1) {
        capacity = max(Self.storeCapacity, Self.runCapacity / max(1, stores))
        state = Mutex(State(ring: Array(repeating: Entry(rev: 0, sent: 0, path: 0, node: 0), count: capacity)))
    }

    /// Registers a subscription before the run; returns its path's id.
    func addSubscription(_ path: String) -> PathTable.ID {
        state.withLock { $0.paths.addSubscription(path) }
    }

    /// The id of an action's path.
    func actionPath(_ path: String) -> PathTable.ID {
        state.withLock { $0.paths.intern(path) }
    }

    /// Records that the action sent at `sent` (changing `path`) by a writer
    /// connected to `node` got `rev`; returns how many subscriptions must receive it.
    func recordAck(rev: UInt64, sent: UInt64, path: PathTable.ID, node: Int) -> Int {
        state.withLock { state in
            state.ring[Int(rev % UInt64(capacity))] = Entry(rev: rev, sent: sent, path: path, node: node)
            return state.paths.subscribersAffected(by: path)
        }
    }

    /// Matches the patches of `pending` that arrived before `watermark` (the ledger knows
    /// every action sent earlier): `sample` gets each delivery's latency and whether it is
    /// on the writer's node. Removes matched patches; returns the deliveries found.
    func match(_ pending: inout [PendingPatch], before watermark: UInt64, sample: (_ nanoseconds: UInt64, _ sameNode: Bool) -> Void) -> Int {
        guard !pending.isEmpty else { return 0 }
        var deliveries = 0
        state.withLock { state in
            var kept = 0
            for index in pending.indices {
                let patch = pending[index]
                guard patch.arrived < watermark else {
                    pending[kept] = patch
                    kept += 1
                    continue
                }
                let capacity = UInt64(self.capacity)
                let first = max(patch.base + 1, patch.rev >= capacity ? patch.rev - capacity + 1 : 0)
                guard first <= patch.rev else { continue }
                for rev in first...patch.rev {
                    let entry = state.ring[Int(rev % capacity)]
                    guard entry.rev == rev, state.paths.overlaps(entry.path, patch.path) else { continue }
                    deliveries += 1
                    sample(patch.arrived >= entry.sent ? patch.arrived - entry.sent : 0, entry.node == patch.node)
                }
            }
            pending.removeLast(pending.count - kept)
        }
        return deliveries
    }
}
