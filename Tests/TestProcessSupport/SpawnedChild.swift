import Foundation

/// A child process started with `posix_spawn` and reaped with `waitpid` by a
/// thread of its own: how the tests start every program.
///
/// Not Foundation's `Process`, for two Linux bugs of Swift 6.3.1's
/// Foundation:
/// - `Process.run()` now and then crashes the whole test process: to close
///   the child's inherited descriptors it lists `/proc/self/fd` and copies
///   each `dirent`'s full 256-byte name, reading past glibc's buffer when a
///   short entry ends a page (swift-corelibs-foundation pull request 5472);
///   the more descriptors the test process holds, the likelier it is;
/// - its exit monitoring can miss a child that exits within milliseconds,
///   which then stays a zombie and `waitUntilExit()` never returns.
///
/// The child gets stdin from `/dev/null`, the test's environment with
/// `environment` added, default signal handling, and no descriptor of the
/// test process beyond the three it is given.
package final class SpawnedChild: @unchecked Sendable {
    // @unchecked: `status` is only read and written under `condition`.

    /// Where the child's stdout or stderr goes.
    package enum Output {
        /// Discarded.
        case discarded
        /// A file created (or truncated) at this path.
        case file(String)
        /// A descriptor of the test process, e.g. a pipe's writing end.
        case descriptor(Int32)
    }

    /// Why a child could not be started.
    package struct Failure: Error, CustomStringConvertible {
        /// What failed.
        package let description: String
    }

    /// The child's process id.
    package let processIdentifier: Int32
    private let condition = NSCondition()
    private var status: Int32?

    /// Starts `argv` (`argv[0]` an absolute path).
    ///
    /// - Throws: ``Failure`` when it cannot be started.
    package init(
        _ argv: [String], environment: [String: String] = [:], standardOutput: Output = .discarded,
        standardError: Output = .discarded
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (target, output) in [(Int32(1), standardOutput), (Int32(2), standardError)] {
            switch output {
            case .discarded: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            case .file(let path): posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            }
        }
        try Self.closeInheritedDescriptors(&actions)

        // The spawning thread may block signals, and a child inherits its mask
        // and ignored signals: start it with none blocked and defaults.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD, SIGWINCH] { sigaddset(&defaultSignals, signal) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = variables.map { strdup($0) } + [nil]
        defer { (cArguments + cEnvironment).forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, cEnvironment)
        guard spawned == 0 else { throw Failure(description: "cannot start \(argv[0]): \(String(cString: strerror(spawned)))") }
        processIdentifier = pid
        Thread.detachNewThread { [self] in reap() }
    }

    /// Whether the child has not exited yet.
    package var isRunning: Bool {
        condition.withLock { status == nil }
    }

    /// Blocks until the child exits and returns its status: the exit code, or
    /// 128 + N when signal N killed it.
    package func waitUntilExit() -> Int32 {
        condition.withLock {
            while status == nil { condition.wait() }
            return status!
        }
    }

    /// Sends `signal` (SIGTERM, SIGKILL, SIGSTOP…) unless the child was reaped.
    package func send(_ signal: Int32) {
        condition.withLock {
            // Once reaped, the pid may name another process.
            if status == nil { kill(processIdentifier, signal) }
        }
    }

    private func reap() {
        var raw: Int32 = 0
        while waitpid(processIdentifier, &raw, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS / WTERMSIG, macros Swift does not import.
        let exit = raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
        condition.withLock {
            status = exit
            condition.broadcast()
        }
    }

    /// Adds "close every descriptor from 3 up" (glibc 2.34's
    /// `posix_spawn_file_actions_addclosefrom_np`, which Swift does not
    /// import: it is declared for `_GNU_SOURCE` only), so a child never
    /// holds another test's pipe open.
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) throws {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            throw Failure(description: "posix_spawn_file_actions_addclosefrom_np is missing: the tests need glibc 2.34 or later")
        }
        let result = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        guard result == 0 else { throw Failure(description: "posix_spawn_file_actions_addclosefrom_np: \(String(cString: strerror(result)))") }
    }
}
