public import StateSyncProtocol

/// What a ``StateSyncClient`` knows about its session, observable with
/// ``StateSyncClient/observeStatus(_:)`` like any store slice.
///
/// ```swift
/// for await state in client.observeStatus(\.connection) { banner.text = "\(state)" }
/// ```
public struct ClientStatus: Sendable, Hashable {
    /// The connection's state.
    public var connection: ConnectionState = .connecting
    /// The session id of the current or last welcome (`s-91`); `nil` before the first.
    public var session: String?
    /// The history's epoch, from the welcome; `nil` before the first.
    public var epoch: String?
    /// The granted role, from the welcome; `nil` before the first.
    public var role: Role?
    /// The newest revision the client has heard of: the welcome's, or a
    /// snapshot's, patch's, value's or ack's. 0 before the first welcome.
    public var rev: UInt64 = 0
    /// How many times the client has been welcomed (1 after the first
    /// connection; each reconnect adds one).
    public var connections: Int = 0
    /// How many dispatches were sent again, with their original ids, on a
    /// new connection because the previous one ended before their answer.
    public var resentDispatches: Int = 0

    /// The status of a client that has not connected yet.
    public init() {}
}
