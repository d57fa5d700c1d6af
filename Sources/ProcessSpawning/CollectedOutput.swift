package import Foundation
import Synchronization

/// The text a child writes to a pipe, gathered on a ``PipeReader``'s thread, so the parent can look for a line
/// (e.g. a server's URL) or report what a failed child said. Keeps the first ``limit`` bytes, then only counts.
package final class CollectedOutput: Sendable {
    /// The default bound: far beyond the few lines a server prints at
    /// warning level, small next to the parent's memory.
    package static let defaultLimit = 1 << 20

    /// How many bytes are kept.
    package let limit: Int
    /// The bytes kept, decoded only when read (a character may straddle two reads).
    private let state = Mutex((kept: Data(), droppedBytes: 0))
    /// Reads the pipe; set once, in `init`.
    private nonisolated(unsafe) var reader: PipeReader?

    /// Starts collecting what arrives on `pipe` until its end (the child and
    /// whoever it passed the pipe to have exited).
    package init(_ pipe: FileHandle, limit: Int = CollectedOutput.defaultLimit) {
        self.limit = limit
        reader = PipeReader(pipe) { [weak self] data in self?.append(data) }
    }

    /// Returns once the pipe's end was read: the child (and whoever it gave
    /// the pipe to) exited, and ``text`` holds all it wrote.
    package func waitUntilEnded() async {
        await reader?.waitUntilEnded()
    }

    /// Everything kept so far, followed by how much was not when the child
    /// wrote more than ``limit`` bytes.
    package var text: String {
        let (kept, dropped) = state.withLock { ($0.kept, $0.droppedBytes) }
        let text = String(decoding: kept, as: UTF8.self)
        return dropped == 0 ? text : text + "\n[\(dropped) more bytes of output not kept]"
    }

    private func append(_ data: Data) {
        state.withLock { state in
            let kept = data.prefix(max(0, limit - state.kept.count))
            state.kept += kept
            state.droppedBytes += data.count - kept.count
        }
    }
}
