import NIOCore

extension Duration {
    /// The same span as NIO's `TimeAmount` (whole nanoseconds).
    var timeAmount: TimeAmount {
        let parts = components
        return .nanoseconds(parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000)
    }
}
