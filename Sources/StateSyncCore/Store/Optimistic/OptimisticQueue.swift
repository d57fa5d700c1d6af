public import Foundation

/// The model of an optimistic mirror, with no I/O: the server's confirmed
/// state, the local actions it has not answered, and the prediction (those
/// actions reduced on the confirmed state, as
/// ``SessionCommand/dispatch(_:from:)`` with a predicted ``Meta``). Patches
/// rebase it, one reduction per pending action. An action the reducer rejects,
/// or one in ``doubt(ids:)`` (re-sent after a drop), stays pending but out of
/// the prediction (docs/client.md, "Optimistic updates").
///
/// ```swift
/// var queue = OptimisticQueue<Board>(confirmed: BoardState(), rev: 0, session: SessionInfo(id: "s-1", name: "alice"))
/// queue.enqueue(id: "a1", action: .addTodo(title: "Milk"), at: Date())
/// queue.predicted.todos.map(\.title)          // ["Milk"], before any answer
/// queue.confirm(serverState, rev: 1)           // the server's patch: rebase
/// queue.settle(id: "a1")                       // its ack (or reject): no longer pending
/// ```
public struct OptimisticQueue<App: StateSyncApp>: Sendable {
    /// One local action the server has not answered yet.
    public struct Pending: Sendable {
        /// Its id on the wire (the server answers it by this id).
        public let id: String
        /// The action.
        public let action: App.Action
        /// When it was dispatched: the predicted ``Meta/time``.
        public let time: Date
        /// Whether the server may have applied it already (see ``doubt(ids:)``):
        /// then it is left out of the prediction until answered.
        public internal(set) var inDoubt: Bool
    }

    /// The server's state, as its snapshots and patches last said.
    public private(set) var confirmed: App.State
    /// The revision of ``confirmed``.
    public private(set) var confirmedRev: UInt64
    /// The unanswered local actions, in the order dispatched.
    public private(set) var pending: [Pending] = []
    /// ``confirmed`` with ``pending`` applied: what the app shows.
    public var predicted: App.State { prediction ?? confirmed }
    /// The prediction while actions are pending; `nil` when it is
    /// ``confirmed`` itself, so that ``confirm(rev:updating:)`` changes the
    /// one copy of the state in place.
    private var prediction: App.State?
    /// The ids of the pending actions the reducer rejected in the prediction.
    public private(set) var predictedRejections: Set<String> = []
    /// The session the actions are predicted as coming from (its name is
    /// what the server puts in, e.g., a chat line).
    public var session: SessionInfo
    /// The client id the predicted ``Meta`` carries.
    public var clientID: String?

    /// A queue with no pending action, at `confirmed` of revision `rev`.
    public init(confirmed: App.State, rev: UInt64, session: SessionInfo, clientID: String? = nil) {
        self.confirmed = confirmed
        self.confirmedRev = rev
        self.session = session
        self.clientID = clientID
    }

    /// Whether action `id` is pending.
    public func isPending(_ id: String) -> Bool {
        pending.contains { $0.id == id }
    }

    /// Adds a local action and applies it on top of ``predicted``.
    public mutating func enqueue(id: String, action: App.Action, at time: Date) {
        let next = Pending(id: id, action: action, time: time, inDoubt: false)
        pending.append(next)
        let accepted = UInt64(pending.dropLast().count { !$0.inDoubt } - predictedRejections.count)
        var state = predicted
        prediction = nil
        if !Self.reduce(next, revision: confirmedRev + accepted + 1, session: session, clientID: clientID, into: &state) {
            predictedRejections.insert(id)
        }
        prediction = state
    }

    /// The server's state moved to `state` at `rev` (a snapshot or patch):
    /// rebases the pending actions on it.
    public mutating func confirm(_ state: App.State, rev: UInt64) {
        confirmed = state
        confirmedRev = rev
        rebase()
    }

    /// The server's state moved at `rev` as `update` says: changes
    /// ``confirmed`` in place (no copy with nothing pending), then rebases. A
    /// throwing `update` leaves the revision as it was.
    public mutating func confirm<Failure: Error>(rev: UInt64, updating update: (inout App.State) throws(Failure) -> Void) throws(Failure) {
        prediction = nil
        defer { rebase() }
        try update(&confirmed)
        confirmedRev = rev
    }

    /// The server answered action `id` (ack, reject or error): it is no longer
    /// pending (an ack's effect is already confirmed: patches come before the
    /// ack). `false` when `id` was not pending.
    @discardableResult
    public mutating func settle(id: String) -> Bool {
        guard let index = pending.firstIndex(where: { $0.id == id }) else { return false }
        pending.remove(at: index)
        rebase()
        return true
    }

    /// Leaves the pending actions `ids` out of the prediction until answered:
    /// they were re-sent after a drop or a restart, and may be applied already.
    public mutating func doubt(ids: Set<String>) {
        guard pending.contains(where: { ids.contains($0.id) && !$0.inDoubt }) else { return }
        for index in pending.indices where ids.contains(pending[index].id) { pending[index].inDoubt = true }
        rebase()
    }

    /// Recomputes ``predicted``: ``confirmed`` with every pending action applied in order.
    public mutating func rebase() {
        guard pending.contains(where: { !$0.inDoubt }) else {
            prediction = nil
            predictedRejections = []
            return
        }
        var state = confirmed
        var rejections: Set<String> = []
        var accepted: UInt64 = 0
        for next in pending where !next.inDoubt {
            if Self.reduce(next, revision: confirmedRev + accepted + 1, session: session, clientID: clientID, into: &state) {
                accepted += 1
            } else {
                rejections.insert(next.id)
            }
        }
        prediction = state
        predictedRejections = rejections
    }

    /// Reduces `next` into `state` from `session` at the predicted `revision`;
    /// `false`, `state` untouched, when the reducer rejects it (the server most
    /// likely will too, and answers for sure).
    private static func reduce(
        _ next: Pending, revision: UInt64, session: SessionInfo, clientID: String?, into state: inout App.State
    ) -> Bool {
        let meta = Meta(revision: revision, clientID: clientID, time: next.time)
        do {
            _ = try App.reducer.reduce(into: &state, action: .dispatch(next.action, from: session), meta: meta)
            return true
        } catch {
            return false
        }
    }
}
