package import Foundation

/// A PostgreSQL server of a test's own: `initdb` into a temporary directory,
/// `postgres` on a free loopback port, removed again by ``with(_:)``.
///
/// No system service is assumed: the binaries come from `PATH` or from
/// Debian's `/usr/lib/postgresql/VERSION/bin` (scripts/test installs the
/// `postgresql` package when they are missing). PostgreSQL refuses to run as
/// root, so when the tests run as root the cluster belongs to `nobody` and
/// every PostgreSQL command runs through `runuser -u nobody`.
///
/// The cluster trusts local connections (no password) for one superuser,
/// `statesync`, and serves its default database `postgres`:
///
/// ```swift
/// try await TestPostgres.with { postgres in
///     let url = postgres.url   // postgres://statesync@127.0.0.1:PORT/postgres
/// }
/// ```
package final class TestPostgres: Sendable {
    /// Why the server could not be set up.
    package struct Failure: Error, CustomStringConvertible {
        /// What failed, with the command's output.
        package let description: String
    }

    /// The superuser `initdb` creates.
    package static let user = "statesync"
    /// The database the URL names (initdb's default one).
    package static let database = "postgres"
    /// The unprivileged account that owns the cluster when the tests run as root.
    private static let unprivilegedUser = "nobody"

    /// The loopback port the server listens on.
    package let port: Int
    /// The temporary directory holding the cluster (`data/`), its socket and
    /// its log; gone once ``with(_:)`` returns.
    package let directory: URL
    let binaries: URL

    /// `postgres://statesync@127.0.0.1:PORT/postgres`.
    package var url: String { "postgres://\(Self.user)@127.0.0.1:\(port)/\(Self.database)" }

    var dataDirectory: String { Self.dataDirectory(in: directory) }
    private var logFile: String { directory.appendingPathComponent("server.log").path }

    private init(port: Int, directory: URL, binaries: URL) {
        self.port = port
        self.directory = directory
        self.binaries = binaries
    }

    /// Runs `body` with a fresh server that accepts connections, then stops
    /// it (immediate mode) and removes its directory, whether `body` threw or not.
    package static func with<T: Sendable>(_ body: (TestPostgres) async throws -> T) async throws -> T {
        let postgres = try await started()
        return try await withCleanup { try await body(postgres) } cleanup: { try await postgres.remove() }
    }

    /// Initializes a cluster and starts it; returns once it accepts
    /// connections. The caller removes it (``remove()``).
    package static func started() async throws -> TestPostgres {
        try await started { directory, binaries in
            try await runAsOwner([
                "initdb", "-D", dataDirectory(in: directory), "-U", user, "--auth=trust", "--encoding=UTF8",
                "--locale=C", "--no-sync",
            ], binaries: binaries)
        }
    }

    /// A cluster whose data directory `prepare` makes in a new directory
    /// (owned by the unprivileged user when the tests run as root), started
    /// on a free port.
    static func started(
        preparing prepare: (_ directory: URL, _ binaries: URL) async throws -> Void
    ) async throws -> TestPostgres {
        guard let binaries = binaryDirectory() else {
            throw Failure(description: "PostgreSQL's initdb, pg_ctl and postgres are not installed: "
                + "install Debian's postgresql package (scripts/test does when it runs as root)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("statesync-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            if getuid() == 0 {
                try await run([try program("chown"), unprivilegedUser, directory.path])
            }
            try await prepare(directory, binaries)
            return try await ReservedPort.starting { port in
                let postgres = TestPostgres(port: port, directory: directory, binaries: binaries)
                do {
                    try await postgres.startServer()
                    return postgres
                } catch where postgres.log.contains("Address already in use") {
                    let said = "PostgreSQL could not listen on port \(port): \(postgres.log)"
                    try? FileManager.default.removeItem(atPath: postgres.logFile)   // the next attempt's log only; absent is fine
                    throw ReservedPort.Taken(description: said)
                }
            }
        } catch {
            try? FileManager.default.removeItem(at: directory)   // best effort: nothing started
            throw error
        }
    }

    /// Starts `postgres` with `pg_ctl start -w`, which returns once the
    /// server accepts connections (or fails after its 60-second bound).
    /// Only loopback TCP; the Unix socket lives in the cluster's directory.
    private func startServer() async throws {
        let options = "-p \(port) -c listen_addresses=127.0.0.1 -k \(directory.path) -c max_connections=50"
        try await runAsOwner(["pg_ctl", "start", "-w", "-t", "60", "-D", dataDirectory, "-l", logFile, "-o", options])
    }

    /// Stops the server at once, as a crash would (`pg_ctl stop -m immediate`):
    /// connections drop, and committed transactions survive the restart.
    package func crash() async throws {
        try await runAsOwner(["pg_ctl", "stop", "-w", "-t", "60", "-m", "immediate", "-D", dataDirectory])
    }

    /// Starts the server again after ``crash()``, on the same port.
    package func restart() async throws {
        try await startServer()
    }

    /// Stops the server (whether running or not) and deletes its directory.
    package func remove() async throws {
        _ = try? await runAsOwner(["pg_ctl", "stop", "-w", "-t", "60", "-m", "immediate", "-D", dataDirectory])
        try FileManager.default.removeItem(at: directory)
    }

    /// The server's log, for a failing test's message.
    package var log: String {
        (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "(no log)"
    }

    /// Runs a PostgreSQL program as the cluster's owner.
    func runAsOwner(_ argv: [String]) async throws {
        try await Self.runAsOwner(argv, binaries: binaries)
    }

    /// Runs `argv[0]` from `binaries` with the rest of `argv`, as the unprivileged user when the tests run as root.
    static func runAsOwner(_ argv: [String], binaries: URL) async throws {
        let program = binaries.appendingPathComponent(argv[0]).path
        let command = getuid() == 0
            ? [try Self.program("runuser"), "-u", Self.unprivilegedUser, "--", program] + argv.dropFirst()
            : [program] + argv.dropFirst()
        try await Self.run(command)
    }

    /// The cluster's data directory inside `directory`.
    static func dataDirectory(in directory: URL) -> String {
        directory.appendingPathComponent("data").path
    }

    /// The absolute path of a system program on `PATH`.
    private static func program(_ name: String) throws -> String {
        guard let path = Tools.onPath(name)?.path else { throw Failure(description: "\(name) is not on PATH") }
        return path
    }

    private static func run(_ argv: [String]) async throws {
        let result = try await Subprocess.run(argv)
        guard result.status == 0 else {
            throw Failure(description: "\(argv.joined(separator: " ")) exited with \(result.status): \(result.output)\(result.errors)")
        }
    }

    /// The directory with `initdb`, `pg_ctl` and `postgres`: the one `initdb`
    /// on `PATH` points to, else the newest of Debian's versioned directories.
    private static func binaryDirectory() -> URL? {
        if let initdb = Tools.onPath("initdb") {
            let directory = initdb.resolvingSymlinksInPath().deletingLastPathComponent()
            if FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("postgres").path) {
                return directory
            }
        }
        let debian = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: debian.path)) ?? []
        return versions.compactMap(Int.init).sorted().reversed()
            .map { debian.appendingPathComponent("\($0)/bin") }
            .first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("initdb").path) }
    }
}
