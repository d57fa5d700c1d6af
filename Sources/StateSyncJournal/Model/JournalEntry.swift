public import StateSyncCore

/// One accepted action as the journal stores it: the action's opaque JSON bytes
/// (an application or a system action), the ``Meta`` fixed when it was accepted,
/// and the client's action id.
///
/// ```swift
/// let entry = JournalEntry(
///     meta: Meta(revision: 1043, clientID: "c-5f2a", time: now),
///     actionID: "a17",
///     action: Array(#"{"type":"toggleTodo","id":"t7"}"#.utf8)
/// )
/// ```
public struct JournalEntry: Sendable, Hashable {
    /// The metadata the reducer saw; `meta.time` comes back bit for bit (stored as
    /// its IEEE 754 bit pattern), so a replay passes reducers the same `Meta`.
    public var meta: Meta
    /// The id the client gave the action in `dispatch`; `nil` for system
    /// actions. With `meta.clientID` it names the `(clientId, actionId)` pair
    /// whose outcome the journal remembers as accepted at `meta.revision`.
    public var actionID: String?
    /// The journaled action as UTF-8 JSON bytes (opaque to the journal).
    public var action: [UInt8]
    /// The app's schema version the action was journaled with
    /// (`StateSyncApp.schemaVersion`): a later version upcasts it while
    /// replaying. Entries stored before versions were recorded read as 1.
    public var schemaVersion: Int

    /// An entry for an action accepted with `meta`, journaled by schema
    /// version `schemaVersion` (default 1).
    public init(meta: Meta, actionID: String? = nil, action: [UInt8], schemaVersion: Int = 1) {
        self.meta = meta
        self.actionID = actionID
        self.action = action
        self.schemaVersion = schemaVersion
    }

    /// The revision the action produced (`meta.revision`).
    public var revision: UInt64 { meta.revision }

    /// The pair whose outcome this entry records, when both ids are present.
    package var outcomeKey: OutcomeKey? {
        guard let clientID = meta.clientID, let actionID else { return nil }
        return OutcomeKey(clientID: clientID, actionID: actionID)
    }
}
