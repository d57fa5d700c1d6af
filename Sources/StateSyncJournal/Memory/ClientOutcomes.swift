import DequeModule

/// A ``MemoryJournal``'s remembered outcomes by clientId: a pair's first outcome
/// stays, and outcomes leave only when a batch forgets or trims the clientId.
struct ClientOutcomes: Sendable {
    private struct Client: Sendable {
        var outcomes: [String: JournalOutcome] = [:]
        /// Action ids, oldest first.
        var order: Deque<String> = []
        /// When it last recorded an outcome (the journal's running count).
        var lastRecorded: UInt64 = 0
    }

    private var clients: [String: Client] = [:]
    private var recorded: UInt64 = 0

    /// The remembered outcome of `key`.
    subscript(key: OutcomeKey) -> JournalOutcome? {
        clients[key.clientID]?.outcomes[key.actionID]
    }

    /// Records the first outcome of `key`; later ones are ignored.
    mutating func remember(_ outcome: JournalOutcome, for key: OutcomeKey) {
        guard self[key] == nil else { return }
        recorded += 1
        clients[key.clientID, default: Client()].outcomes[key.actionID] = outcome
        clients[key.clientID]?.order.append(key.actionID)
        clients[key.clientID]?.lastRecorded = recorded
    }

    /// Drops every outcome of `clientID`.
    mutating func forget(_ clientID: String) {
        clients[clientID] = nil
    }

    /// Keeps only the `keep` most recent outcomes of `clientID`.
    mutating func trim(_ clientID: String, keeping keep: Int) {
        guard var client = clients[clientID] else { return }
        clients[clientID] = nil  // no second reference while it is changed
        while client.order.count > max(1, keep) {
            client.outcomes[client.order.removeFirst()] = nil
        }
        clients[clientID] = client
    }

    /// A filter of every remembered pair.
    func pairFilter() -> OutcomePairFilter {
        var filter = OutcomePairFilter(expectedPairs: clients.values.reduce(0) { $0 + $1.outcomes.count })
        for (clientID, client) in clients {
            for actionID in client.outcomes.keys { filter.insert(clientID: clientID, actionID: actionID) }
        }
        return filter
    }

    /// The clientIds with outcomes, least recently recorded first.
    var clientsByRecency: [String] {
        clients.sorted { $0.value.lastRecorded < $1.value.lastRecorded }.map(\.key)
    }
}
