import CoreMetrics
import Logging
import StateSyncCore
import StateSyncJournal
import StateSyncProtocol

extension Sequencer {
    /// How many journal outcome reads a round keeps in flight at once.
    private static var prefetchConcurrency: Int { 32 }

    /// The outcome of `key` decided before (memory, else the journal; always the
    /// journal when `askingTheJournal`, as another node may have decided it), or
    /// `nil` when new. An unreadable journal gives a rejection, never a second apply.
    func earlierOutcome(of key: OutcomeKey, askingTheJournal: Bool = false) async -> JournalOutcome? {
        switch exactlyOnce.lookup(key) {
        case .known(let outcome):
            return outcome
        case .new where !askingTheJournal:
            return nil
        case .new, .askJournal:
            do {
                let outcome = try await journal.outcome(clientID: key.clientID, actionID: key.actionID)
                if let outcome { exactlyOnce.found(outcome, for: key) }
                return outcome
            } catch {
                logger.error("reading a remembered outcome failed", metadata: ["client": "\(key.clientID)", "id": "\(key.actionID)", "error": "\(error)"])
                guard sharedJournal != nil else {
                    return .rejected(code: "internal_error", message: "could not check whether action \(key.actionID) was already applied")
                }
                return .rejected(
                    code: RejectCode.unavailable.rawValue,
                    message: "could not check whether action \(key.actionID) was already applied (the storage is unreachable); this dispatch was not applied: send it again later")
            }
        }
    }

    /// Reads the journal outcomes of the round's new pairs concurrently, before
    /// the round is handled; a failed read is left to ``earlierOutcome(of:)``.
    func prefetchOutcomes(for events: [EngineEvent]) async {
        guard !forwardsDispatches else { return }   // the writer looks them up
        let keys = events.lazy.compactMap { event -> OutcomeKey? in
            guard case let .request(sessionID, .dispatch(id, _), _) = event,
                  let clientID = self.publication.sessions[sessionID]?.clientID
            else { return nil }
            return OutcomeKey(clientID: clientID, actionID: id)
        }
        let missing = exactlyOnce.pairsToPrefetch(keys)
        guard !missing.isEmpty else { return }
        let journal = journal
        await withTaskGroup(of: (OutcomeKey, Result<JournalOutcome?, any Error>).self) { group in
            var pending = missing.makeIterator()
            for _ in 0..<Self.prefetchConcurrency {
                guard let key = pending.next() else { break }
                group.addTask { await Self.read(key, from: journal) }
            }
            while let (key, result) = await group.next() {
                if case .success(let outcome) = result { exactlyOnce.found(outcome, for: key) }
                if let key = pending.next() {
                    group.addTask { await Self.read(key, from: journal) }
                }
            }
        }
    }

    private static func read(_ key: OutcomeKey, from journal: any Journal) async -> (OutcomeKey, Result<JournalOutcome?, any Error>) {
        do {
            return (key, .success(try await journal.outcome(clientID: key.clientID, actionID: key.actionID)))
        } catch {
            return (key, .failure(error))
        }
    }
}
