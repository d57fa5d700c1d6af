/// The clock a connection stamps received messages with: the continuous clock, or one a test controls.
/// Equal when the same instance (a closure cannot be compared), so ``WebSocketChannelOptions`` stays `Hashable`.
package struct ArrivalClock: Sendable, Hashable {
    private final class Box: Sendable {
        let now: @Sendable () -> ContinuousClock.Instant
        init(_ now: @escaping @Sendable () -> ContinuousClock.Instant) { self.now = now }
    }

    private let box: Box

    /// A clock that reads `now`; called on the connection's event loop, so it must not block.
    package init(_ now: @escaping @Sendable () -> ContinuousClock.Instant) {
        box = Box(now)
    }

    /// `ContinuousClock.now`: the default.
    package static let continuous = ArrivalClock { .now }

    /// The current instant.
    package func now() -> ContinuousClock.Instant { box.now() }

    package static func == (lhs: ArrivalClock, rhs: ArrivalClock) -> Bool {
        lhs.box === rhs.box
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(box))
    }
}
