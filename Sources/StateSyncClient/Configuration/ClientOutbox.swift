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
    /// Also in the JSON file at this URL, rewritten atomically on every dispatch and answer. A client made with it
    /// re-sends its actions under the file's client id, and the server applies each once while it remembers the
    /// outcome; a failed write of a new dispatch throws ``StateSyncClientError/outboxFailed(path:reason:)`` unsent.
    case file(URL)
}
