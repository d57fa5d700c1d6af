import Foundation
import StateSyncLoad
import Synchronization

/// Draws the run's progress on stderr: a bar redrawn in place on a
/// terminal, or one line per phase (and every 5 s) when stderr is a file
/// or pipe, so logs stay readable.
final class ProgressBar: Sendable {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let width = 30
    private let state = Mutex<(phase: LoadProgress.Phase?, lastLine: ContinuousClock.Instant)>((nil, .now))

    func show(_ progress: LoadProgress) {
        let (fraction, detail) = describe(progress)
        if isTerminal {
            let filled = Int((fraction * Double(width)).rounded(.down))
            let bar = String(repeating: "#", count: min(width, filled)) + String(repeating: "-", count: max(0, width - filled))
            write("\r\u{1B}[2K\(progress.phase.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) [\(bar)] \(detail)")
            return
        }
        let due = state.withLock { state -> Bool in
            guard state.phase != progress.phase || state.lastLine.duration(to: .now) >= .seconds(5) else { return false }
            state = (progress.phase, .now)
            return true
        }
        if due { write("\(progress.phase.rawValue): \(detail)\n") }
    }

    /// Ends the bar's line (before the final table).
    func finish() {
        if isTerminal { write("\r\u{1B}[2K") }
    }

    private func describe(_ progress: LoadProgress) -> (Double, String) {
        switch progress.phase {
        case .connecting:
            let fraction = Double(progress.ready) / Double(max(1, progress.clients))
            return (fraction, "\(progress.connected)/\(progress.clients) connected, \(progress.ready) subscribed"
                + (progress.failed > 0 ? ", \(progress.failed) failed" : ""))
        case .running, .draining:
            let fraction = progress.planned.map { min(1, progress.elapsed / max($0, 0.001)) } ?? 0
            return (fraction, String(format: "%.0f s: %d acked, %d delivered, %d errors, %d gaps",
                                     progress.elapsed, progress.acked, progress.deliveries, progress.errors, progress.gaps))
        case .closing:
            return (1, "closing connections")
        }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
