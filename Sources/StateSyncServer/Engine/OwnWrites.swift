/// What makes every answer to a session's read reflect what that session
/// caused before it (its own join, its dispatches), even before those are
/// durable: a `get` or `subscribe` sent right after `welcome` or a
/// `dispatch` waits until the revision the session caused is published,
/// and the session's later requests wait behind it, in order.
///
/// Bounded by what sessions may have in flight: an entry per session with
/// an unpublished write, a read per request the engine's queue let in.
struct OwnWrites {
    /// A request held until `revision` is published.
    struct HeldRequest {
        let sessionID: String
        let request: SessionRequest
        let received: ContinuousClock.Instant
        let revision: UInt64
    }

    /// The last revision each session caused that is not published yet.
    private var unpublished: [String: UInt64] = [:]
    /// Requests waiting, in the order they came.
    private var held: [HeldRequest] = []
    /// Sessions with a request in `held` (their next ones wait behind it).
    private var holding: [String: Int] = [:]
    /// The revision `unpublished` was last cleared up to.
    private var clearedThrough: UInt64 = 0

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
        switch request {
        case .get, .subscribe:
            waitsFor = unpublished[sessionID].flatMap { $0 > published ? $0 : nil }
            guard waitsFor != nil || behind else { return false }
        case .unsubscribe, .dispatch:
            guard behind else { return false }
            waitsFor = nil
        }
        held.append(HeldRequest(sessionID: sessionID, request: request, received: received, revision: waitsFor ?? 0))
        holding[sessionID, default: 0] += 1
        return true
    }

    /// The requests that may go now that `published` is published (all of
    /// them when `everything`: nothing more will be published), in order;
    /// a session's requests stay in order behind its first one still waiting.
    mutating func release(published: UInt64, everything: Bool = false) -> [HeldRequest] {
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
            if !everything, stillWaiting.contains(request.sessionID) || request.revision > published {
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
        guard holding.removeValue(forKey: sessionID) != nil else { return }
        held.removeAll { $0.sessionID == sessionID }
    }
}
