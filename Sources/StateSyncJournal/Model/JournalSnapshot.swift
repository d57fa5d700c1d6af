/// The full state document at a revision, as UTF-8 JSON bytes.
///
/// The caller decides when to take one (every N revisions, and at clean
/// shutdown); a journal keeps every one over its kept entries and a few
/// exponentially sparser older ones (``JournalRetention``).
public struct JournalSnapshot: Sendable, Hashable {
    /// The revision whose state this is (0 is the initial state).
    public var revision: UInt64
    /// The serialized state document.
    public var state: [UInt8]

    /// The state `state` at `revision`.
    public init(revision: UInt64, state: [UInt8]) {
        self.revision = revision
        self.state = state
    }
}
