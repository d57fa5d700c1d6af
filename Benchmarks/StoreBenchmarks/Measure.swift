import Synchronization

/// Counts observer callbacks (to check that each action reached exactly one observer).
final class DeliveryCounter: Sendable {
    private let count = Atomic<Int>(0)

    func record() {
        count.add(1, ordering: .relaxed)
    }

    var value: Int { count.load(ordering: .relaxed) }
}

/// Dispatches per second of `dispatch(i)` for i = 0, 1, 2, …: batches run
/// until at least `minimumSeconds` passed; the best of `repeats` runs is kept
/// (other engineers compile on the same two cores, which only slows runs down).
func measureThroughput(repeats: Int = 3, minimumSeconds: Double = 0.4, _ dispatch: (Int) -> Void) -> Double {
    var best = 0.0
    var next = 0
    for _ in 0..<repeats {
        let clock = ContinuousClock()
        let start = clock.now
        var done = 0
        var batch = 64
        while true {
            for _ in 0..<batch {
                dispatch(next)
                next += 1
            }
            done += batch
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            if seconds >= minimumSeconds {
                best = max(best, Double(done) / seconds)
                break
            }
            batch = min(batch * 2, 65_536)
        }
    }
    return best
}
