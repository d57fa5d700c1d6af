import DequeModule
import StateSyncCore

/// Keeps a session's dispatches in send order across the two routes, written
/// here or forwarded (``ClusterLinks``): one waits while an earlier one is on
/// the other route. Only sessions with an unanswered dispatch have an entry.
struct DispatchRoutes {
    /// Where a dispatch would go now.
    enum Route: Equatable {
        /// Sequenced by this node.
        case here
        /// Forwarded to the writer at `address`.
        case writer(address: String)
    }

    /// What a dispatch may do now.
    enum Admission: Equatable {
        /// Sequence it here.
        case sequenceHere
        /// Forward it to `address`; on link `onLink` when its session's
        /// earlier forwards are on that link (``ClusterLinks`` refuses it
        /// when that link closed meanwhile), on any link when `nil`.
        case forward(address: String, onLink: UInt64?)
        /// Hold it until its session's dispatches are all answered.
        case wait
    }

    /// A forwarded dispatch with no answer from the writer, to sequence here.
    struct Unanswered {
        let id: String
        let action: JSONObject
        let received: ContinuousClock.Instant
        /// How it is sequenced here.
        let route: DispatchRoute
        /// Why the writer did not apply it (for the log).
        let reason: String
    }

    /// A forwarded dispatch, until the writer answers it.
    private struct Out {
        let id: String
        /// Set when no answer will come.
        var unanswered: Unanswered?
    }

    /// One session's dispatches not answered yet.
    private struct Session {
        /// The ids sequenced here whose answers have not been sent.
        var here: Deque<String> = []
        /// The forwards the writer has not answered, in the order sent.
        var out: [Out] = []
        /// The writer and the link those forwards are on.
        var link: (address: String, number: UInt64)?

        var isEmpty: Bool { here.isEmpty && out.isEmpty }
    }

    private var sessions: [String: Session] = [:]

    /// Whether `sessionID` has no dispatch on either route: a dispatch of
    /// its that waits may go.
    func isSettled(_ sessionID: String) -> Bool {
        sessions[sessionID] == nil
    }

    /// Decides where dispatch `id` of `sessionID` goes, when it would take
    /// `route`. A dispatch sequenced here is counted until its answer is sent.
    mutating func admit(_ id: String, of sessionID: String, wanting route: Route) -> Admission {
        var session = sessions[sessionID] ?? Session()
        switch route {
        case .here:
            guard session.out.isEmpty else { return .wait }
            session.here.append(id)
            sessions[sessionID] = session
            return .sequenceHere
        case .writer(let address):
            guard session.here.isEmpty else { return .wait }
            // A session has a link exactly while it has forwards on their way.
            guard let link = session.link else { return .forward(address: address, onLink: nil) }
            guard link.address == address, session.out.allSatisfy({ $0.unanswered == nil }) else { return .wait }
            return .forward(address: address, onLink: link.number)
        }
    }

    /// Dispatch `id` of `sessionID` was sent to `address` on link `link`.
    mutating func forwarded(_ id: String, of sessionID: String, to address: String, onLink link: UInt64) {
        var session = sessions[sessionID] ?? Session()
        if session.out.isEmpty { session.link = (address, link) }
        session.out.append(Out(id: id))
        sessions[sessionID] = session
    }

    /// The writer answered forward `id` of `sessionID`. Returns the
    /// session's forwards to sequence here now, in the order sent: those
    /// with no answer, once no other is on its way.
    mutating func writerAnswered(_ id: String, of sessionID: String) -> [Unanswered] {
        guard var session = sessions[sessionID], let index = session.out.firstIndex(where: { $0.id == id && $0.unanswered == nil })
        else { return [] }
        session.out.remove(at: index)
        return settle(sessionID, session)
    }

    /// No answer will come for forward `unanswered.id` of `sessionID`.
    /// Returns, as ``writerAnswered(_:of:)`` does, what to sequence here now.
    mutating func noAnswer(_ unanswered: Unanswered, of sessionID: String) -> [Unanswered] {
        guard var session = sessions[sessionID],
              let index = session.out.firstIndex(where: { $0.id == unanswered.id && $0.unanswered == nil })
        else { return [] }
        session.out[index].unanswered = unanswered
        return settle(sessionID, session)
    }

    /// Stores `session`, taking its unanswered forwards once none is on its way.
    private mutating func settle(_ sessionID: String, _ session: Session) -> [Unanswered] {
        var session = session
        let unanswered = session.out.compactMap(\.unanswered)
        guard unanswered.count == session.out.count else {
            sessions[sessionID] = session
            return []
        }
        session.out = []
        session.link = nil
        session.here.append(contentsOf: unanswered.map(\.id))
        sessions[sessionID] = session.isEmpty ? nil : session
        return unanswered
    }

    /// These answers were sent: the dispatches sequenced here among them
    /// are no longer on their route.
    mutating func answered(_ answers: [DispatchAnswer]) {
        guard !sessions.isEmpty else { return }
        for answer in answers { withdraw(answer.actionID, of: answer.sessionID) }
    }

    /// Dispatch `id` of `sessionID`, sequenced here, was answered, or is to
    /// be sequenced again (its batch was refused): no longer counted (until
    /// admitted anew).
    mutating func withdraw(_ id: String, of sessionID: String) {
        guard var session = sessions[sessionID], let index = session.here.firstIndex(of: id) else { return }
        session.here.remove(at: index)
        sessions[sessionID] = session.isEmpty ? nil : session
    }

    /// `sessionID` left: its dispatches will not be answered.
    mutating func left(_ sessionID: String) {
        sessions[sessionID] = nil
    }
}
