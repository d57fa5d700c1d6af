import Foundation

/// Timing helpers: best of several runs, so that other processes on the
/// shared machine disturb the figures less.
enum Timing {
    /// How many times each measurement is repeated; the best run counts.
    static let runs = 7

    /// Items per second of the fastest of ``runs`` runs of `body`, which
    /// handles `items` items per run.
    static func rate(items: Int, _ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        body()   // warm-up
        var best = Duration.seconds(1_000)
        for _ in 0..<runs {
            let elapsed = clock.measure(body)
            best = min(best, elapsed)
        }
        let seconds = Double(best.components.seconds) + Double(best.components.attoseconds) / 1e18
        return Double(items) / seconds
    }

    /// Keeps the optimizer from removing work whose result is otherwise unused.
    @inline(never)
    static func consume(_ value: Int) {
        sink &+= value
    }

    /// Written only by the benchmark's single (main) thread, so unguarded.
    nonisolated(unsafe) private static var sink = 0

    /// `value` rounded, with thousands separators.
    static func format(_ value: Double) -> String {
        Int(value.rounded()).formatted(.number.grouping(.automatic))
    }

    /// `ours / baseline` as `12.3x`.
    static func ratio(_ ours: Double, _ baseline: Double) -> String {
        let ratio = ours / baseline
        return ratio >= 10 ? "\(Int(ratio.rounded()))x" : "\(Double(Int(ratio * 100)) / 100)x"
    }
}
