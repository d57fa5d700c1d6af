import Dispatch
import Glibc
import Synchronization

/// Ends the server child when the driver is interrupted (Ctrl-C, or SIGTERM
/// from `timeout`), so that no `statesync serve` outlives a run.
final class InterruptGuard: Sendable {
    /// The one guard of the process: signals are process-wide.
    static let shared = InterruptGuard()

    /// The running server's process id, 0 when none runs.
    private let child = Atomic<Int32>(0)

    /// Records the server now running (0: none).
    func serverStarted(_ pid: Int32) {
        child.store(pid, ordering: .sequentiallyConsistent)
    }

    /// Runs `body` with SIGINT and SIGTERM handled: the server child is
    /// SIGKILLed and the driver exits with status 130.
    func guarding<T>(_ body: () async throws -> T) async rethrows -> T {
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                let pid = self.child.load(ordering: .sequentiallyConsistent)
                if pid > 0 { kill(pid, SIGKILL) }
                exit(130)
            }
            source.resume()
            return source
        }
        defer { sources.forEach { $0.cancel() } }
        return try await body()
    }
}
