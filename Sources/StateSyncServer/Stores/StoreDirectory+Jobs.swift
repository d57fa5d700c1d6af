import Logging
import StateSyncJournal
import StateSyncProtocol
import Synchronization

/// Opening and closing stores: the jobs of ``StoreDirectory/run()``'s task
/// group, one per store opening or closing.
extension StoreDirectory {
    func perform(_ job: Job) async {
        switch job {
        case .open(let store): await open(store)
        case let .close(store, engine): await close(store, engine)
        }
    }

    private func open(_ store: StoreName) async {
        let result: Result<SyncEngine<App>, ProtocolError>
        do {
            let start = ContinuousClock.now
            let journal = try await storage.open(store, logger: logger)
            let journalOpened = ContinuousClock.now
            let engine = try await makeEngine(store, journal)
            result = .success(engine)
            opened()
            logger.info("store opened", metadata: [
                "store": "\(store)", "rev": "\(engine.revision)",
                "journal": "\(journalOpened - start)", "recovery": "\(ContinuousClock.now - journalOpened)",
            ])
        } catch {
            logger.warning("a store could not be opened", metadata: ["store": "\(store)", "error": "\(error)"])
            result = .failure(.storeUnavailable(store, reason: "\(error)", id: nil))
        }
        let (waiting, closeAtOnce): ([Completion], Bool) = state.withLock { state in
            guard case .opening(let waiting) = state.entries[store]?.phase else { return ([], true) }
            switch result {
            case .success(let engine):
                state.entries[store]?.phase = .open(engine)
                return (waiting, state.stopped)
            case .failure:
                state.entries[store] = nil
                return (waiting, false)
            }
        }
        if closeAtOnce, case .success(let engine) = result { await shutDown(engine) }
        for completion in waiting { completion(result) }
    }

    private func close(_ store: StoreName, _ engine: SyncEngine<App>) async {
        let start = ContinuousClock.now
        await shutDown(engine)
        logger.info("store closed", metadata: ["store": "\(store)", "rev": "\(engine.revision)", "took": "\(ContinuousClock.now - start)"])
        let reopen: Bool = state.withLock { state in
            guard case .closing(_, let waiting) = state.entries[store]?.phase else { return false }
            if waiting.isEmpty || state.stopped {
                state.entries[store] = nil
                return false
            }
            state.entries[store]?.phase = .opening(waiting)
            return true
        }
        if reopen { await open(store) }
    }

    /// Starts closing the idle open stores whose idle time is up.
}
