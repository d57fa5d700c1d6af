public import Foundation

/// Where a ``StateSyncClient`` keeps its unanswered dispatches
/// (``StateSyncClientConfiguration/outbox``).
///
/// ```swift
/// configuration.outbox = .file(URL(filePath: "board-outbox.json"))
/// ```
public enum ClientOutbox: Sendable, Hashable {
    /// In memory only (default): a dispatch not answered when the process
    /// ends may or may not have been applied.
    case memory
    /// Also in the JSON file at this URL, rewritten (atomically) whenever a
    /// dispatch is made or answered, and read when the client is made: its
    /// actions are sent again with their ids, under the client id the file
    /// names (which then replaces ``StateSyncClientConfiguration/clientID``),
    /// and the server's exactly-once applies each one once, however often it
    /// is sent, while it remembers the outcome (`--outcome-retention`).
    /// Each rewrite costs in proportion to the dispatches pending (at most
    /// ``StateSyncClientConfiguration/maxPendingDispatches``); a failed write
    /// of a new dispatch throws ``StateSyncClientError/outboxFailed(path:reason:)``
    /// and the dispatch is not sent.
    case file(URL)
}
