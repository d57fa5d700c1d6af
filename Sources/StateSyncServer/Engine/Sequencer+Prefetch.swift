import StateSyncCore

extension Sequencer {
    /// How many journal outcome reads a round keeps in flight at once.
    private static var prefetchConcurrency: Int { 32 }

    /// Reads the journal outcomes of the round's dispatched pairs that memory
    /// does not hold, concurrently, before the round is handled one event at
    /// a time: after a restart every new pair must be checked (exactly-once),
    /// and overlapping those reads keeps the sequencer from waiting on each.
    /// Pairs found are remembered; pairs absent are noted in
    /// ``checkedAbsentOutcomes`` for this round; a failed read is left to the
    /// per-action lookup, which reports it.
    func prefetchOutcomes(for events: [EngineEvent]) async {
        guard journalHasEarlierOutcomes || outcomesEvicted else { return }
        var keys: [OutcomeKey] = []
        var seen: Set<OutcomeKey> = []
        for case let .dispatch(sessionID, id, _, _) in events {
            guard let clientID = sessions[sessionID]?.clientID else { continue }
            let key = OutcomeKey(clientID: clientID, actionID: id)
            if outcomes[key] == nil, seen.insert(key).inserted { keys.append(key) }
        }
        guard keys.count > 1 else { return }
        let journal = journal
        await withTaskGroup(of: (OutcomeKey, JournalOutcome??).self) { group in
            var pending = keys.makeIterator()
            for _ in 0..<Self.prefetchConcurrency {
                guard let key = pending.next() else { break }
                group.addTask { await Self.read(key, from: journal) }
            }
            while let (key, result) = await group.next() {
                switch result {
                case .some(.some(let outcome)): outcomes.remember(outcome, for: key)
                case .some(.none): checkedAbsentOutcomes.insert(key)
                case .none: break
                }
                if let key = pending.next() {
                    group.addTask { await Self.read(key, from: journal) }
                }
            }
        }
    }

    /// The journal's outcome of `key`: `.some(nil)` when it has none, `nil` when the read failed.
    private static func read(_ key: OutcomeKey, from journal: any Journal) async -> (OutcomeKey, JournalOutcome??) {
        do {
            return (key, .some(try await journal.outcome(clientID: key.clientID, actionID: key.actionID)))
        } catch {
            return (key, nil)
        }
    }
}
