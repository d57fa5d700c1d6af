public import Foundation

/// The metadata of one accepted action, fixed by the store when it accepts the action.
///
/// Reducers read time and the acting client from here and never from a clock or
/// a global (DESIGN invariant 2), so replaying the same actions with the same
/// `Meta` rebuilds every revision exactly.
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
