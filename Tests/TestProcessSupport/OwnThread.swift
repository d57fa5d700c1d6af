package import Foundation

/// Runs `work`, which blocks (waits for a child process, reads a pipe to its
/// end), on a thread of its own, and returns its result.
///
/// Not on Dispatch's global queues: on Linux their threads also run every
/// Swift task of the process (as many as there are cores: two here), so a
/// few blocking waits there stall every test's servers and clients at once.
package func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}

/// ``onOwnThread(_:)`` for work that throws.
package func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await onOwnThread { Result { try work() } }.get()
}
