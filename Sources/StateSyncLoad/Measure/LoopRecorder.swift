/// The measurements of one event loop's connections: no locks on the hot
/// path, merged by the runner (on the loop, through `submit`).
final class LoopRecorder {
    /// Since the run started.
    var ackTotal = LatencyHistogram()
    var deliveryTotal = LatencyHistogram()
    /// Since the run started, ``deliveryTotal`` split by where the subscriber
    /// is: on the writer's node, or on another node of a cluster.
    var sameNodeTotal = LatencyHistogram()
    var crossNodeTotal = LatencyHistogram()
    /// Since the last ``takeInterval()``.
    var ackInterval = LatencyHistogram()
    var deliveryInterval = LatencyHistogram()
    /// ``deliveryTotal`` of each store, when the run has several (else empty).
    var byStoreTotal: [LatencyHistogram]
    /// Patches not yet matched with their actions, by store.
    var pending: [[PendingPatch]]

    /// A recorder for the connections of a run over `stores` stores.
    init(stores: Int) {
        byStoreTotal = stores > 1 ? Array(repeating: LatencyHistogram(), count: stores) : []
        pending = Array(repeating: [], count: max(1, stores))
    }

    func recordAck(nanoseconds: UInt64) {
        ackTotal.record(nanoseconds: nanoseconds)
        ackInterval.record(nanoseconds: nanoseconds)
    }

    /// Matches what can be matched, each store's patches with its own
    /// ledger (see ``DeliveryLedger/match(_:before:sample:)``).
    func match(ledgers: [DeliveryLedger], watermark: UInt64, counters: LoadCounters) {
        var found = 0
        for store in pending.indices {
            found += ledgers[store].match(&pending[store], before: watermark) { nanoseconds, sameNode in
                self.deliveryTotal.record(nanoseconds: nanoseconds)
                self.deliveryInterval.record(nanoseconds: nanoseconds)
                if sameNode {
                    self.sameNodeTotal.record(nanoseconds: nanoseconds)
                } else {
                    self.crossNodeTotal.record(nanoseconds: nanoseconds)
                }
                if !self.byStoreTotal.isEmpty { self.byStoreTotal[store].record(nanoseconds: nanoseconds) }
            }
        }
        if found > 0 { counters.deliveries.bump(found) }
    }

    /// The histograms since the run started.
    var totals: LoopTotals {
        LoopTotals(ack: ackTotal, delivery: deliveryTotal, sameNode: sameNodeTotal, crossNode: crossNodeTotal, byStore: byStoreTotal)
    }

    /// The interval histograms, which start again empty.
    func takeInterval() -> (ack: LatencyHistogram, delivery: LatencyHistogram) {
        defer {
            ackInterval = LatencyHistogram()
            deliveryInterval = LatencyHistogram()
        }
        return (ackInterval, deliveryInterval)
    }
}

/// One loop's histograms since the run started, handed to ``ResultBuilder``.
struct LoopTotals: Sendable {
    var ack: LatencyHistogram
    var delivery: LatencyHistogram
    var sameNode: LatencyHistogram
    var crossNode: LatencyHistogram
    /// The delivery latency of each store (empty with one store).
    var byStore: [LatencyHistogram]
}

@available(*, unavailable)
extension LoopRecorder: Sendable {}
