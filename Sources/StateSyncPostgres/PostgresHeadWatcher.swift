import Logging
import NIOCore
import PostgresNIO
import StateSyncJournal

/// How a ``PostgresJournal`` learns that other nodes moved the store's
/// head: a hint, never the truth (the engine then reads the entries).
///
/// - **LISTEN/NOTIFY**: each group commit sends one `NOTIFY` on
///   ``channel`` inside its transaction (so only a committed group is
///   announced), with the payload `"<head> <store>"`. The watcher listens
///   on a connection of its own, named ``applicationName`` in
///   `pg_stat_activity`. A notification arrives within milliseconds, but
///   one can be lost: PostgreSQL does not queue them for a listener whose
///   connection dropped. A dropped listener is reconnected with the
///   journal's backoff, and a poll follows each reconnect.
/// - **Polling**: every ``PostgresJournal/Configuration/pollInterval`` the
///   head is read on the journal's reader connection, the safety net for
///   whatever the notifications missed.
///
/// Either way the hint fires only for a head past the journal's
/// ``PostgresJournal/lastRevision`` (this node's own commits are not news).
struct PostgresHeadWatcher: Sendable {
    /// The channel of the head notifications.
    static let channel = "statesync_head"
    /// The `application_name` of the listening connection.
    static let applicationName = "statesync-listen"

    let location: PostgresLocation
    let storeID: String
    let pollInterval: Duration
    let backoff: RetryBackoff
    let reader: ReconnectingConnection
    let logger: Logger
    /// This node's view of the head (``PostgresJournal/lastRevision``).
    let lastRevision: @Sendable () -> UInt64
    let hint: @Sendable (UInt64) -> Void

    /// The payload of the notification announcing `head` on `store`.
    static func payload(head: UInt64, store: String) -> String {
        "\(head) \(store)"
    }

    /// Listens and polls until cancelled.
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await listen() }
            group.addTask { await poll() }
        }
    }

    private func announce(_ head: UInt64) {
        if head > lastRevision() { hint(head) }
    }

    private func poll() async {
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: pollInterval)
            } catch {
                return
            }
            await readHead()
        }
    }

    private func readHead() async {
        do {
            var head: Int64 = 0
            for found in try await reader.run(
                "SELECT head_revision FROM statesync_stores WHERE store_id = \(storeID)", logger: logger
            ).decode(Int64.self) { head = found }
            announce(UInt64(head))
        } catch {
            logger.warning("polling the store's head failed", metadata: ["server": "\(location)", "error": "\(PostgresFailure.message(error))"])
        }
    }

    private func listen() async {
        var failures = 0
        while !Task.isCancelled {
            do {
                var configuration = location.configuration
                configuration.options.additionalStartupParameters.append(("application_name", Self.applicationName))
                let connection = try await PostgresConnection.connect(configuration: configuration, id: 3, logger: logger)
                failures = 0
                await consume(connection)
                try? await connection.close()
            } catch {
                failures += 1
                logger.warning("the PostgreSQL LISTEN connection failed", metadata: [
                    "server": "\(location)", "error": "\(PostgresFailure.message(error))", "failures": "\(failures)"])
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
                    // Notifications sent before LISTEN took effect are lost: read the head once.
                    await readHead()
                    for try await notification in notifications {
                        handle(notification.payload)
                    }
                }
                logger.warning("the PostgreSQL LISTEN connection ended; reconnecting", metadata: ["server": "\(location)"])
            } catch {
                if !Task.isCancelled {
                    logger.warning("the PostgreSQL LISTEN connection was lost; reconnecting", metadata: [
                        "server": "\(location)", "error": "\(PostgresFailure.message(error))"])
                }
            }
        } onCancel: {
            let _: EventLoopFuture<Void> = connection.close()
        }
    }

    private func handle(_ payload: String) {
        guard let space = payload.firstIndex(of: " "), payload[payload.index(after: space)...] == storeID,
              let head = UInt64(payload[..<space]) else { return }
        announce(head)
    }
}
