import StateSyncCore
public import StateSyncProtocol

extension StateSyncClient {
    /// A handle on store `name` of the server: the same API as the client's
    /// own (which is `main`'s), over the same connection, with a mirror,
    /// requests and resumption of its own.
    ///
    /// ```swift
    /// let team = client.store(try StoreName("team-42"))
    /// try await team.dispatch(["type": "addTodo", "title": "Milk"])
    /// for try await todos in try await team.observe("/todos", as: [Todo].self) { render(todos) }
    /// ```
    public nonisolated func store(_ name: StoreName) -> ClientStore {
        ClientStore(client: self, name: name)
    }

    /// A handle on the store named `name` (see ``store(_:)-(StoreName)``).
    ///
    /// - Throws: ``StateSyncClientError/invalidStore(_:)`` for a name
    ///   against ``StoreName/rule``.
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
