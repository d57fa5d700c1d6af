package import Foundation

/// A child process started with `posix_spawn` and reaped with `waitpid` by a thread of its own: how
/// StateSync's tools, benchmarks and tests start every program.
/// Not Foundation's `Process`, which on Linux can crash the parent while closing inherited descriptors and
/// can miss a child that exits at once (a zombie `waitUntilExit()` never returns).
/// The child gets stdin from `/dev/null`, the parent's environment plus `environment`, default signal
/// handling, an empty signal mask, and no parent descriptor beyond the three it is given.
///
/// ```swift
/// let child = try SpawnedChild(["/bin/sh", "-c", "echo hello"], standardOutput: .pipe)
/// let printed = child.standardOutput?.readDataToEndOfFile()   // "hello\n"
/// let status = await child.exitStatus                         // 0
/// ```
package final class SpawnedChild: @unchecked Sendable {
    // @unchecked: `status` and `exitWaiters` are only read and written under
    // `condition`; the other stored properties are constants.

    /// The child's process id.
    package let processIdentifier: Int32
    /// The reading end of the child's stdout when it was started with
    /// ``Output/pipe``; it reaches its end when the child (and every process
    /// the child gave its stdout to) has exited.
    package let standardOutput: FileHandle?
    /// The reading end of the child's stderr when it was started with ``Output/pipe``.
    package let standardError: FileHandle?
    private let condition = NSCondition()
    private var status: Int32?
    /// The tasks awaiting ``exitStatus``: one per caller awaiting at once,
    /// all resumed (and the list emptied) when the child is reaped.
    private var exitWaiters: [CheckedContinuation<Int32, Never>] = []

    /// Starts `argv` (`argv[0]` an absolute path) in `workingDirectory` (default: the parent's), with
    /// `environment` added to the parent's; throws ``Failure`` naming the program and the reason.
    package init(
        _ argv: [String], environment: [String: String] = [:], workingDirectory: String? = nil,
        standardOutput: Output = .discarded, standardError: Output = .discarded
    ) throws(Failure) {
        guard let program = argv.first else { throw Failure(program: "", reason: "no arguments, not even its path") }
        let actions = SpawnActions()
        actions.openStandardInput()
        // The parent's writing ends go once the child holds its copies (or could
        // not start), so that reading a pipe ends when the child exits.
        let outputPipe = try actions.redirect(1, to: standardOutput, program: program)
        defer { outputPipe?.closeWritingEnd() }
        let errorPipe = try actions.redirect(2, to: standardError, program: program)
        defer { errorPipe?.closeWritingEnd() }
        if let workingDirectory { try actions.changeDirectory(to: workingDirectory, program: program) }
        try actions.closeInheritedDescriptors(program: program)

        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        processIdentifier = try actions.spawn(argv, environment: variables)
        self.standardOutput = outputPipe?.readingEnd
        self.standardError = errorPipe?.readingEnd
        Thread.detachNewThread { [self] in reap() }
    }

    /// Whether the child has not exited yet.
    package var isRunning: Bool {
        condition.withLock { status == nil }
    }

    /// Blocks the calling thread until the child exits and returns its
    /// status: the exit code, or 128 + N when signal N killed it.
    package func waitUntilExit() -> Int32 {
        condition.withLock {
            while status == nil { condition.wait() }
            return status!
        }
    }

    /// The child's status once it has exited (the exit code, or 128 + N when
    /// signal N killed it), awaited without blocking a thread.
    package var exitStatus: Int32 {
        get async {
            await withCheckedContinuation { continuation in
                let known: Int32? = condition.withLock {
                    if status == nil { exitWaiters.append(continuation) }
                    return status
                }
                if let known { continuation.resume(returning: known) }
            }
        }
    }

    /// Sends `signal` (SIGTERM, SIGKILL, SIGSTOP…) unless the child was reaped.
    package func send(_ signal: Int32) {
        condition.withLock {
            // Once reaped, the pid may name another process.
            if status == nil { kill(processIdentifier, signal) }
        }
    }

    /// Sends `signal` (default SIGTERM: a clean shutdown), SIGKILLs the child
    /// when it has not exited `grace` later, and returns its exit status.
    package func stop(_ signal: Int32 = SIGTERM, killingAfter grace: Duration) async -> Int32 {
        send(signal)
        let killer = Task { [self] in
            try await Task.sleep(for: grace)   // cancelled as soon as the child exits
            send(SIGKILL)
        }
        defer { killer.cancel() }
        return await exitStatus
    }

    private func reap() {
        var raw: Int32 = 0
        while waitpid(processIdentifier, &raw, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS / WTERMSIG, macros Swift does not import.
        let exit = raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
        let waiters = condition.withLock {
            status = exit
            condition.broadcast()
            defer { exitWaiters.removeAll() }
            return exitWaiters
        }
        for waiter in waiters { waiter.resume(returning: exit) }
    }
}
