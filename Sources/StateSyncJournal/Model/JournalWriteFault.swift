/// Why a journal's writes are failing: now, while it retries them (`/health`
/// `storage_failing`), or for good (``isFinal``: `failed` until a restart).
/// It names no path, since it reaches clients; the log has the full error.
public struct JournalWriteFault: Sendable, Hashable {
    /// The failure in a few words, without paths: "the disk is full" or
    /// "a disk I/O error".
    public var reason: String
    /// Failed attempts since the last successful write.
    public var failures: Int
    /// Whether the journal gave up: it accepts no more writes until it is
    /// opened again (the server restarted).
    public var isFinal: Bool

    /// A fault; `isFinal` when the journal gave up.
    public init(reason: String, failures: Int, isFinal: Bool = false) {
        self.reason = reason
        self.failures = failures
        self.isFinal = isFinal
    }
}
