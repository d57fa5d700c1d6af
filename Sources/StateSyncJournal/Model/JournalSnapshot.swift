/// The full state document at a revision, as UTF-8 JSON bytes; the caller
/// decides when to take one, the journal which to keep (``JournalRetention``).
public struct JournalSnapshot: Sendable, Hashable {
    /// The revision whose state this is (0 is the initial state).
    public var revision: UInt64
    /// The serialized state document.
    public var state: [UInt8]
    /// The app's schema version the state was written with
    /// (`StateSyncApp.schemaVersion`): a later version migrates it when the
    /// store opens. Snapshots stored before versions were recorded read as 1.
    public var schemaVersion: Int

    /// The state `state` at `revision`, of schema version `schemaVersion` (default 1).
    public init(revision: UInt64, state: [UInt8], schemaVersion: Int = 1) {
        self.revision = revision
        self.state = state
        self.schemaVersion = schemaVersion
    }
}
