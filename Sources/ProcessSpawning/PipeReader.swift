package import Foundation
import Synchronization

/// Reads a child's pipe to its end with blocking reads on a thread of its own, handing each chunk to a callback.
/// Not a `readabilityHandler`: on Linux, closing a descriptor while its Dispatch source is registered crashes
/// libdispatch; here only this thread uses it, and the handle is let go after the end was read.
package final class PipeReader: Sendable {
    private let state = Mutex<(ended: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Starts reading `pipe`, calling `received` with each chunk (on the
    /// reading thread) until the pipe's end: the child, and whoever it gave
    /// the pipe to, have exited.
    package init(_ pipe: FileHandle, received: @escaping @Sendable (Data) -> Void) {
        nonisolated(unsafe) let handle = pipe   // used by the reading thread alone from here on
        Thread { [self] in
            let descriptor = handle.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }   // the end, or an error that ends it as well
                received(Data(buffer[0..<count]))
            }
            withExtendedLifetime(handle) {}
            finished()
        }.start()
    }

    /// Whether the pipe's end was read.
    package var hasEnded: Bool { state.withLock { $0.ended } }

    /// Returns once the pipe's end was read (every chunk handed over before).
    package func waitUntilEnded() async {
        await withCheckedContinuation { continuation in
            let ended = state.withLock { state in
                if !state.ended { state.waiters.append(continuation) }
                return state.ended
            }
            if ended { continuation.resume() }
        }
    }

    private func finished() {
        let waiters = state.withLock { state in
            state.ended = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
