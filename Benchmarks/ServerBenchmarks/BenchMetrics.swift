import CoreMetrics
import Synchronization

/// A metrics backend for the benchmarks: counters are atomics the benchmark
/// reads back; timers, meters and recorders cost nothing. (swift-metrics'
/// test backend keeps every recorded value, which would measure itself.)
final class BenchMetrics: MetricsFactory, Sendable {
    private let counters = Mutex<[String: BenchCounter]>([:])

    /// The total of the counter `label` (0 when never created).
    func total(_ label: String) -> Int64 {
        counters.withLock { $0[label]?.total } ?? 0
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        counters.withLock { counters in
            if let counter = counters[label] { return counter }
            let counter = BenchCounter()
            counters[label] = counter
            return counter
        }
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        NOOPMetricsHandler.instance
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler { NOOPMetricsHandler.instance }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        NOOPMetricsHandler.instance
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler { NOOPMetricsHandler.instance }

    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {}
    func destroyMeter(_ handler: any MeterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}
}

/// One counter: an atomic total.
final class BenchCounter: CounterHandler, Sendable {
    private let value = Atomic<Int64>(0)

    /// The total so far.
    var total: Int64 { value.load(ordering: .relaxed) }

    func increment(by amount: Int64) {
        value.add(amount, ordering: .relaxed)
    }

    func reset() {
        value.store(0, ordering: .relaxed)
    }
}
