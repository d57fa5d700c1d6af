public import Foundation

/// The metadata of one accepted action, fixed by the store when it accepts it.
/// Reducers read time and client from here, never a clock (DESIGN invariant 2),
/// so a replay rebuilds every revision exactly.
///
/// ```swift
/// Reduce<Board, BoardAction> { state, action, meta in
///     state.chat.append(Message(text: "hi", at: meta.time, by: meta.clientID))
/// }
/// ```
public struct Meta: Sendable, Hashable, Codable {
    /// The revision this action produced: the previous revision plus one.
    public var revision: UInt64
    /// The client that dispatched the action, when the caller named one.
    public var clientID: String?
    /// The time the store accepted the action (from its injectable clock).
    public var time: Date

    /// Metadata for an action accepted at `revision`.
    public init(revision: UInt64, clientID: String? = nil, time: Date) {
        self.revision = revision
        self.clientID = clientID
        self.time = time
    }
}
