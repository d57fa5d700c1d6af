import StateSyncCore
import Synchronization

/// The commands an effect sent, recorded from any task.
final class SentCommands: Sendable {
    private let sent = Mutex<[SessionCommand<KeyValueApp.Action>]>([])

    /// Records one.
    func append(_ command: SessionCommand<KeyValueApp.Action>) {
        sent.withLock { $0.append(command) }
    }

    /// Everything recorded, in order.
    var commands: [SessionCommand<KeyValueApp.Action>] { sent.withLock { $0 } }
}
