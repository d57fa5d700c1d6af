import Foundation

/// Minimal timing helpers: best-of-rounds wall time per iteration.
enum Timing {
    /// The best time per iteration, in nanoseconds, over `rounds` rounds of
    /// `iterations` calls each (the best round is the least disturbed by the
    /// other work on a shared machine).
    static func bestNanoseconds(rounds: Int = 5, iterations: Int, _ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<rounds {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<iterations { try body() }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
            best = min(best, elapsed / Double(iterations))
        }
        return best
    }

    /// Iterations that make one round last about `budget` seconds, judged
    /// from one call taking `sample` nanoseconds.
    static func iterations(forSample sample: Double, budget: Double = 0.2) -> Int {
        max(1, Int(budget * 1e9 / max(sample, 1)))
    }

    static func megabytesPerSecond(bytes: Int, nanoseconds: Double) -> Double {
        Double(bytes) / 1_048_576 / (nanoseconds / 1e9)
    }

    static func format(_ value: Double, digits: Int = 1) -> String {
        String(format: "%.\(digits)f", value)
    }
}

/// Keeps a result alive so the optimizer cannot drop the work measured.
@_optimize(none)
func blackHole<T>(_ value: T) {}
