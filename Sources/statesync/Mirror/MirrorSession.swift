import BoardApp
import StateSyncClient
import StateSyncCore

/// What both forms of `mirror` run: the connection, its status, one optimistic mirror of
/// the board feeding the components, and a `stop` body whose end closes everything.
enum MirrorSession {
    /// A change of the client's status.
    enum StatusChange: Sendable {
        /// The connection state changed.
        case connection(ConnectionState)
        /// A newer revision was heard of.
        case rev(UInt64)

        /// Applies the change to a status bar.
        func apply(to bar: inout StatusBar) {
            switch self {
            case .connection(let state): bar.connection = state
            case .rev(let rev): bar.rev = rev
            }
        }
    }

    /// Runs `store`'s client with the components of `store` until `stop`
    /// returns, then closes the client. Throws what ends the client for good (the server refused
    /// the session) or a whole state that is not a board.
    static func run(
        _ store: ClientStore,
        onStatus: @escaping @Sendable (StatusChange) async -> Void,
        onPanel: @escaping @Sendable (any BoardPanel) async -> Void,
        until stop: @escaping @Sendable () async throws -> Void
    ) async throws {
        let client = store.client
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await client.run() }
            group.addTask {
                for await state in client.observeStatus(\.connection) { await onStatus(.connection(state)) }
            }
            group.addTask {
                for await rev in await store.observeRev() { await onStatus(.rev(rev)) }
            }
            group.addTask { try await feedBoard(store, show: onPanel) }
            group.addTask(operation: stop)
            defer { group.cancelAll() }
            do {
                try await group.next()
            } catch {
                await client.close()
                throw error
            }
            await client.close()
        }
    }

    /// Mirrors `store`'s board into the components: one subscription of the whole state, each
    /// component observing a slice. A client closed before the first snapshot came (the user
    /// left while it connected) ends the feed as any later close does, not with an error.
    static func feedBoard(_ store: ClientStore, show: @escaping @Sendable (any BoardPanel) async -> Void) async throws {
        let board: OptimisticMirror<Board>
        do {
            board = try await store.mirror(Board.self, optimistic: true)
        } catch let error as StateSyncClientError where error == .closed {
            return
        }
        await BoardFeeds.run(board, show: show)
    }
}
