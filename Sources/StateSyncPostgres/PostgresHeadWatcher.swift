import Logging
import NIOCore
import PostgresNIO
import StateSyncJournal
import Synchronization

/// How a node learns that other nodes moved the heads of its open stores: a hint,
/// never the truth (each engine then reads the entries). One per node.
/// Each group commit `NOTIFY`s ``channel`` with `"<head> <store id>"` (creating and
/// deleting a store: `"+ <id>"`, `"- <id>"`); notifications are lost while the listener
/// reconnects, so the heads are also polled every ``PostgresJournal/Configuration/pollInterval``.
/// A hint fires only for a head past the journal's revision; a polled head behind it,
/// or another epoch, is lost history (``PostgresHistoryLoss``). Runs until ``stop()``.
final class PostgresHeadWatcher: Sendable {
    /// The channel of the head and store notifications.
    static let channel = "statesync_head"
    /// The `application_name` of the listening connection.
    static let applicationName = "statesync-listen"

    /// One journal following its store.
    private struct Follower {
        let storeID: String
        /// The epoch the journal serves.
        let epoch: String
        /// The journal's view of the head (``PostgresJournal/lastRevision``).
        let lastRevision: @Sendable () -> UInt64
        let hint: @Sendable (UInt64) -> Void
    }

    private struct State {
        var followers: [Int: Follower] = [:]
        var nextToken = 0
        var task: Task<Void, Never>?
        var stopped = false
    }

    private let connector: PostgresConnector
    private let pollInterval: Duration
    private let backoff: RetryBackoff
    private let reader: ReconnectingConnection
    private let catalog: PostgresStoreCatalog
    private let historyLoss: PostgresHistoryLoss
    private let logger: Logger
    private let state = Mutex(State())

    init(
        connector: PostgresConnector, pollInterval: Duration, backoff: RetryBackoff, reader: ReconnectingConnection,
        catalog: PostgresStoreCatalog, historyLoss: PostgresHistoryLoss, logger: Logger
    ) {
        self.historyLoss = historyLoss
        self.connector = connector
        self.pollInterval = pollInterval
        self.backoff = backoff
        self.reader = reader
        self.catalog = catalog
        self.logger = logger
    }

    /// The payload of the notification announcing `head` on `store`.
    static func payload(head: UInt64, store: String) -> String {
        "\(head) \(store)"
    }

    /// The payload of the notification that `store` was created (or deleted).
    static func payload(created: Bool, store: String) -> String {
        "\(created ? "+" : "-") \(store)"
    }

    /// Tells `hint` each head past `lastRevision()` of `storeID` (served
    /// under `epoch`) it learns of, until ``unfollow(_:)`` with the returned
    /// token; starts the watcher with its first follower. `nil` once stopped.
    func follow(
        storeID: String, epoch: String, lastRevision: @escaping @Sendable () -> UInt64,
        hint: @escaping @Sendable (UInt64) -> Void
    ) -> Int? {
        state.withLock { state in
            guard !state.stopped else { return nil }
            let token = state.nextToken
            state.nextToken += 1
            state.followers[token] = Follower(storeID: storeID, epoch: epoch, lastRevision: lastRevision, hint: hint)
            if state.task == nil { state.task = Task { await self.run() } }
            return token
        }
    }

    /// Stops telling the follower of `token`.
    func unfollow(_ token: Int) {
        _ = state.withLock { $0.followers.removeValue(forKey: token) }
    }

    /// Stops listening and polling, and waits for it.
    func stop() async {
        let task = state.withLock { state in
            state.stopped = true
            state.followers = [:]
            return state.task
        }
        task?.cancel()
        await task?.value
    }

    /// Listens and polls until cancelled.
    private func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.listen() }
            group.addTask { await self.poll() }
        }
    }

    private func announce(_ head: UInt64, of storeID: String) {
        guard historyLoss.error(of: storeID) == nil else { return }
        let followers = state.withLock { $0.followers.values.filter { $0.storeID == storeID } }
        for follower in followers where head > follower.lastRevision() { follower.hint(head) }
    }

    /// What a poll read of `follower`'s store, whose journal was at
    /// `revision` before the read: a head past it is announced; a head
    /// behind it, or another epoch, is history lost (see the type's documentation).
    private func check(_ follower: Follower, before revision: UInt64, head: UInt64, epoch: String) async {
        guard historyLoss.error(of: follower.storeID) == nil else { return }
        if epoch != follower.epoch {
            historyLoss.epochChanged(store: follower.storeID, epoch: follower.epoch, found: epoch, head: head)
        } else if head < revision {
            await historyLoss.headWentBack(store: follower.storeID, epoch: epoch, seen: revision, head: head)
        } else {
            if head > follower.lastRevision() { follower.hint(head) }
            return
        }
        follower.hint(revision + 1)   // wakes the engine, whose reads of the store now fail
    }

    private func poll() async {
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: pollInterval)
            } catch {
                return
            }
            await readHeads()
        }
    }

    /// Reads the heads and epochs of every followed store, in one query.
    /// Each journal's revision is taken before the query is sent: a head
    /// read after it can be behind it only if the store lost history.
    private func readHeads() async {
        let followers = state.withLock { Array($0.followers.values) }.map { ($0, $0.lastRevision()) }
        let stores = Array(Set(followers.map(\.0.storeID)))
        guard !stores.isEmpty else { return }
        do {
            for (store, head, epoch) in try await reader.run(
                "SELECT store_id, head_revision, epoch FROM statesync_stores WHERE store_id = ANY(\(stores))", logger: logger
            ).decode((String, Int64, String).self) {
                for (follower, revision) in followers where follower.storeID == store {
                    await check(follower, before: revision, head: UInt64(head), epoch: epoch)
                }
            }
        } catch {
            logger.warning("polling the stores' heads failed", metadata: [
                "server": "\(connector)", "error": "\(PostgresFailure.message(error))"])
        }
    }

    private func listen() async {
        var failures = 0
        while !Task.isCancelled {
            do {
                let connection = try await connector.connect(id: 3, applicationName: Self.applicationName, logger: logger)
                failures = 0
                await consume(connection)
                try? await connection.close()
            } catch {
                failures += 1
                logger.warning("the PostgreSQL LISTEN connection failed", metadata: [
                    "server": "\(connector)", "error": "\(PostgresFailure.message(error))", "failures": "\(failures)"])
            }
            guard !Task.isCancelled else { return }
            failures = max(failures, 1)
            do {
                try await Task.sleep(for: backoff.delay(attempt: failures))
            } catch {
                return
            }
        }
    }

    /// Listens on `connection` until it drops or the task is cancelled.
    private func consume(_ connection: PostgresConnection) async {
        await withTaskCancellationHandler {
            do {
                try await connection.listen(on: Self.channel) { notifications in
                    // Notifications sent before LISTEN took effect are lost: read once what they would have said.
                    await self.readHeads()
                    await self.catalog.reload(from: self.reader)
                    for try await notification in notifications {
                        self.handle(notification.payload)
                    }
                }
                logger.warning("the PostgreSQL LISTEN connection ended; reconnecting", metadata: ["server": "\(connector)"])
            } catch {
                if !Task.isCancelled {
                    logger.warning("the PostgreSQL LISTEN connection was lost; reconnecting", metadata: [
                        "server": "\(connector)", "error": "\(PostgresFailure.message(error))"])
                }
            }
        } onCancel: {
            let _: EventLoopFuture<Void> = connection.close()
        }
    }

    private func handle(_ payload: String) {
        guard let space = payload.firstIndex(of: " ") else { return }
        let store = String(payload[payload.index(after: space)...])
        switch payload[..<space] {
        case "+": catalog.insert(store)
        case "-": catalog.remove(store)
        case let head: if let head = UInt64(head) { announce(head, of: store) }
        }
    }
}
