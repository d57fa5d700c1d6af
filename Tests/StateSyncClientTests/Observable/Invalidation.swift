import Observation
import Synchronization

/// One `withObservationTracking` registration whose invalidations can be
/// awaited and counted: armed when made, it counts every invalidation
/// (re-arming itself after each) and ``next()`` returns after the next one.
final class Invalidation: Sendable {
    private let read: @Sendable () -> Void
    private let count = Mutex(0)
    private let signals: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    /// Arms `read`'s dependencies.
    init(_ read: @escaping @Sendable () -> Void) {
        self.read = read
        let (signals, continuation) = AsyncStream.makeStream(of: Void.self)
        self.signals = signals
        self.continuation = continuation
        arm()
    }

    /// How many invalidations so far.
    var total: Int { count.withLock { $0 } }

    /// Returns after the next invalidation (at once if one came since the last call).
    func next() async {
        for await _ in signals { return }
    }

    private func arm() {
        withObservationTracking(read) { [self] in
            count.withLock { $0 += 1 }
            continuation.yield()
            // The change is applied by now (the mirror tells after it): read again.
            arm()
        }
    }
}
