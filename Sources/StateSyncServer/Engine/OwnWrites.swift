/// Holds a session's reads until what it caused before (its join, its
/// dispatches, forwarded ones included) is published, and its later requests
/// behind them, in order. Bounded by what sessions may have in flight.
struct OwnWrites {
    /// A request held until `revision` is published.
    struct HeldRequest {
        let sessionID: String
        let request: SessionRequest
        let received: ContinuousClock.Instant
        /// The revision it waits for; `.max` while it waits for the
        /// answers of the session's first `forwardsBefore` forwarded dispatches.
        var revision: UInt64
        var forwardsBefore = 0
        /// Whether it waits until its session has no dispatch on either route.
        var waitsForRoutes = false
    }

    /// Requests taken out of order of arrival (released, or sequenced
    /// again) that must be held again: a dispatch that may not take its
    /// route yet, and its session's requests after it.
    struct HeldAgain {
        /// Them, in order.
        private(set) var requests: [HeldRequest] = []
        private var sessions: Set<String> = []

        /// Whether a request of `sessionID` is held here (its later ones wait behind it).
        func holds(_ sessionID: String) -> Bool { sessions.contains(sessionID) }

        /// Holds `request` after the others.
        mutating func hold(_ request: HeldRequest) {
            requests.append(request)
            sessions.insert(request.sessionID)
        }
    }

    /// The last revision each session caused that is not published yet.
    private var unpublished: [String: UInt64] = [:]
    /// Requests waiting, in the order they came.
    private var held: [HeldRequest] = []
    /// Sessions with a request in `held` (their next ones wait behind it).
    private var holding: [String: Int] = [:]
    /// The revision `unpublished` was last cleared up to.
    private var clearedThrough: UInt64 = 0
    /// Per session with forwarded dispatches not all answered: how many it
    /// forwarded, and how many were answered.
    private var forwards: [String: (sent: Int, answered: Int)] = [:]

    /// Whether no forwarded dispatch waits for its answer.
    var forwardsAnswered: Bool { forwards.isEmpty }

    /// `sessionID` forwarded a dispatch to the store's writer.
    mutating func forwarding(by sessionID: String) {
        forwards[sessionID, default: (0, 0)].sent += 1
    }

    /// The writer answered one of `sessionID`'s forwarded dispatches (or it
    /// failed): accepted at `revision`, or not. Its reads that waited for
    /// that answer now wait for the revisions its answered dispatches caused.
    mutating func forwarded(_ revision: UInt64?, by sessionID: String) {
        guard var counts = forwards[sessionID] else { return }
        counts.answered += 1
        forwards[sessionID] = counts.answered == counts.sent ? nil : counts
        if let revision { caused(revision, by: sessionID) }
        for index in held.indices where held[index].sessionID == sessionID && held[index].revision == .max
            && held[index].forwardsBefore <= counts.answered {
            held[index].revision = unpublished[sessionID] ?? 0
        }
    }

    /// `sessionID` caused `revision` (not published yet).
    mutating func caused(_ revision: UInt64, by sessionID: String) {
        unpublished[sessionID] = max(unpublished[sessionID] ?? 0, revision)
    }

    /// Holds `request` when it must wait: a read while its session has a
    /// write beyond `published`, or any request behind one held. Returns
    /// whether it was held.
    mutating func hold(
        _ request: SessionRequest, from sessionID: String, received: ContinuousClock.Instant, published: UInt64
    ) -> Bool {
        let behind = !holding.isEmpty && holding[sessionID] != nil
        let waitsFor: UInt64?
        var forwardsBefore = 0
        switch request {
        case .get, .subscribe:
            if let counts = forwards[sessionID] {
                (waitsFor, forwardsBefore) = (.max, counts.sent)
            } else {
                waitsFor = unpublished[sessionID].flatMap { $0 > published ? $0 : nil }
                guard waitsFor != nil || behind else { return false }
            }
        case .unsubscribe, .dispatch:
            guard behind else { return false }
            waitsFor = nil
        }
        held.append(HeldRequest(
            sessionID: sessionID, request: request, received: received, revision: waitsFor ?? 0, forwardsBefore: forwardsBefore))
        holding[sessionID, default: 0] += 1
        return true
    }

    /// Holds `requests` (in order) ahead of their sessions' requests held
    /// already: a dispatch that may not take its route yet, and what its
    /// session sent after it that was released with it.
    mutating func holdAhead(_ requests: [HeldRequest]) {
        guard !requests.isEmpty else { return }
        var ahead = Dictionary(grouping: requests, by: \.sessionID)
        var rebuilt: [HeldRequest] = []
        rebuilt.reserveCapacity(held.count + requests.count)
        for request in held {
            if let first = ahead.removeValue(forKey: request.sessionID) { rebuilt += first }
            rebuilt.append(request)
        }
        rebuilt += requests.filter { ahead[$0.sessionID] != nil }
        held = rebuilt
        for request in requests { holding[request.sessionID, default: 0] += 1 }
    }

    /// Whether a session's first held request is a dispatch that waited for
    /// its routes and may go now (``release(published:everything:routesSettled:)``
    /// would release it).
    func holdsSettledDispatch(routesSettled: (String) -> Bool) -> Bool {
        guard !held.isEmpty else { return false }
        var seen: Set<String> = []
        for request in held where seen.insert(request.sessionID).inserted {
            if request.waitsForRoutes, routesSettled(request.sessionID) { return true }
        }
        return false
    }

    /// The requests that may go now that `published` is published (all of
    /// them when `everything`: nothing more will be published), in order;
    /// a session's requests stay in order behind its first one still waiting.
    mutating func release(
        published: UInt64, everything: Bool = false, routesSettled: (String) -> Bool = { _ in true }
    ) -> [HeldRequest] {
        // Cleared once per published revision, not once per round.
        if everything || published > clearedThrough {
            unpublished = everything ? [:] : unpublished.filter { $0.value > published }
            clearedThrough = published
        }
        guard !held.isEmpty else { return [] }
        var released: [HeldRequest] = []
        var stillWaiting: Set<String> = []
        var kept: [HeldRequest] = []
        for request in held {
            if !everything, stillWaiting.contains(request.sessionID) || request.revision > published
                || (request.waitsForRoutes && !routesSettled(request.sessionID)) {
                stillWaiting.insert(request.sessionID)
                kept.append(request)
            } else {
                released.append(request)
            }
        }
        held = kept
        holding = kept.reduce(into: [:]) { $0[$1.sessionID, default: 0] += 1 }
        return released
    }

    /// Forgets `sessionID` (it left): its held requests are dropped.
    mutating func left(_ sessionID: String) {
        unpublished[sessionID] = nil
        forwards[sessionID] = nil
        guard holding.removeValue(forKey: sessionID) != nil else { return }
        held.removeAll { $0.sessionID == sessionID }
    }
}
