import StateSyncCore
public import StateSyncProtocol

extension StateSyncClient {
    /// A handle on store `name` of the server (``ClientStore``): the client's API over the same connection, with
    /// a mirror, requests and resumption of its own.
    public nonisolated func store(_ name: StoreName) -> ClientStore {
        ClientStore(client: self, name: name)
    }

    /// A handle on the store named `name` (see ``store(_:)-(StoreName)``); throws
    /// ``StateSyncClientError/invalidStore(_:)`` for a name against ``StoreName/rule``.
    public nonisolated func store(_ name: String) throws(StateSyncClientError) -> ClientStore {
        guard let valid = try? StoreName(name) else { throw .invalidStore(name) }   // the rule is the reason, stated by the error
        return store(valid)
    }
}

extension StateSyncClient {
    /// Store `name`'s epoch, if known (``ClientStore/epoch``).
    func epoch(of name: StoreName) -> String? {
        stores[name]?.epoch
    }

    /// The newest revision of store `name` heard of (``ClientStore/rev``).
    func rev(of name: StoreName) -> UInt64 {
        stores[name]?.rev ?? 0
    }

    /// Store `name`'s revision now and after every change (``ClientStore/observeRev()``).
    func observeRev(of name: StoreName) -> StateObservation<UInt64> {
        state(name).revision.observe(\UInt64.self)
    }
}
