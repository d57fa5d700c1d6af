import Foundation
import Synchronization

/// Where the run stands, read by every client's loop: loading (disruptions and dispatches),
/// stopping (writers finish, slow readers catch up) and finished (every loop closes and returns).
final class SoakPhase: Sendable {
    private let stoppingFlag = Atomic<Bool>(false)
    private let finishedFlag = Atomic<Bool>(false)

    /// The load is over: converge.
    var isStopping: Bool { stoppingFlag.load(ordering: .acquiring) }
    /// The checks are done: close and return.
    var isFinished: Bool { finishedFlag.load(ordering: .acquiring) }

    /// Ends the load.
    func stop() { stoppingFlag.store(true, ordering: .releasing) }
    /// Ends the run.
    func finish() {
        stop()
        finishedFlag.store(true, ordering: .releasing)
    }

    /// Sleeps `seconds`, in slices of at most 100 ms, returning early once
    /// the run is finished (or, with `untilStopping`, once it is stopping),
    /// or when the task is cancelled.
    func pause(_ seconds: Double, untilStopping: Bool = false) async {
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1_000))
        while ContinuousClock.now < deadline, !isFinished, !(untilStopping && isStopping), !Task.isCancelled {
            try? await Task.sleep(for: min(.milliseconds(100), deadline - ContinuousClock.now))  // cancellation ends the loop
        }
    }

    /// A random wait with mean `mean` seconds (exponentially distributed, so
    /// that disconnects arrive as a Poisson process).
    static func randomWait(mean: Double) -> Double {
        -mean * Foundation.log(Double.random(in: Double.ulpOfOne..<1))
    }
}
