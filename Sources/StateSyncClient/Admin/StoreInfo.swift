public import StateSyncProtocol

/// One store of a server as its listing (`GET /api/stores`) reports it.
public struct StoreInfo: Sendable, Equatable {
    /// Its name.
    public var name: StoreName
    /// Whether it is open (resident in the server's memory) now.
    public var open: Bool
    /// Its revision, known only while it is open.
    public var revision: UInt64?
    /// The sessions in it now.
    public var sessions: Int
    /// The bytes it holds (its files, or its state's size in memory), `nil` when the server cannot say.
    public var bytes: Int?

    /// A store with these figures.
    public init(name: StoreName, open: Bool, revision: UInt64?, sessions: Int, bytes: Int?) {
        self.name = name
        self.open = open
        self.revision = revision
        self.sessions = sessions
        self.bytes = bytes
    }
}
