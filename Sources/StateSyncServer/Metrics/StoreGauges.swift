import CoreMetrics
import StateSyncProtocol
import Synchronization

/// Gauges `statesync_store_sessions{store}` and `statesync_store_revision{store}`
/// for the `limit` open stores with the most sessions only, so the series stay
/// bounded; a store that leaves them has its series destroyed.
final class StoreGauges: Sendable {
    /// One open store's figures.
    struct Figures: Sendable {
        var store: StoreName
        var sessions: Int
        var revision: UInt64
    }

    private struct Labelled {
        let sessions: Meter
        let revision: Meter
    }

    /// How often ``StoreDirectory`` refreshes them: a scrape every 15 s or
    /// so sees figures at most a second old, for one pass over the open stores.
    static var refreshInterval: Duration { .seconds(1) }

    /// The most stores labelled at once (``StoreDirectoryConfiguration/metricsTopStores``); 0 labels none.
    let limit: Int
    private let factory: any MetricsFactory
    private let labelled = Mutex<[StoreName: Labelled]>([:])

    /// Gauges made with `factory` for at most `limit` stores.
    init(limit: Int, factory: any MetricsFactory) {
        self.limit = max(0, limit)
        self.factory = factory
    }

    /// Labels the top stores of `figures` with their values and removes the rest.
    func update(_ figures: [Figures]) {
        let top = figures.sorted { ($0.sessions, $1.store.rawValue) > ($1.sessions, $0.store.rawValue) }.prefix(limit)
        let kept = Set(top.map(\.store))
        labelled.withLock { labelled in
            for (store, gauges) in labelled where !kept.contains(store) {
                gauges.sessions.destroy()
                gauges.revision.destroy()
                labelled[store] = nil
            }
            for figure in top {
                let gauges = labelled[figure.store] ?? makeGauges(figure.store)
                labelled[figure.store] = gauges
                gauges.sessions.set(figure.sessions)
                gauges.revision.set(Int64(clamping: figure.revision))
            }
        }
    }

    /// Removes every labelled series (at shutdown).
    func removeAll() {
        update([])
    }

    private func makeGauges(_ store: StoreName) -> Labelled {
        let dimensions = [("store", store.rawValue)]
        return Labelled(
            sessions: Meter(label: "statesync_store_sessions", dimensions: dimensions, factory: factory),
            revision: Meter(label: "statesync_store_revision", dimensions: dimensions, factory: factory))
    }
}
