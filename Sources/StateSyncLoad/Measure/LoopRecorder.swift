/// The measurements of one event loop's connections: no locks on the hot
/// path, merged by the runner (on the loop, through `submit`).
final class LoopRecorder {
    /// Since the run started.
    var ackTotal = LatencyHistogram()
    var deliveryTotal = LatencyHistogram()
    /// Since the last ``takeInterval()``.
    var ackInterval = LatencyHistogram()
    var deliveryInterval = LatencyHistogram()
    /// Patches not yet matched with their actions.
    var pending: [PendingPatch] = []

    func recordAck(nanoseconds: UInt64) {
        ackTotal.record(nanoseconds: nanoseconds)
        ackInterval.record(nanoseconds: nanoseconds)
    }

    /// Matches what can be matched (see ``DeliveryLedger/match(_:before:sample:)``).
    func match(ledger: DeliveryLedger, watermark: UInt64, counters: LoadCounters) {
        let found = ledger.match(&pending, before: watermark) { nanoseconds in
            self.deliveryTotal.record(nanoseconds: nanoseconds)
            self.deliveryInterval.record(nanoseconds: nanoseconds)
        }
        if found > 0 { counters.deliveries.bump(found) }
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

@available(*, unavailable)
extension LoopRecorder: Sendable {}
