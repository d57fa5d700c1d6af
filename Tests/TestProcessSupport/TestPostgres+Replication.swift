import Foundation

/// Streaming replication between test servers, for failover tests: a
/// standby copied from a running primary, and its promotion.
///
/// ```swift
/// let standby = try await primary.standby()
/// try await primary.crash()
/// try await standby.promote()   // standby.url now takes writes
/// ```
extension TestPostgres {
    /// A hot standby of this server on a port of its own: a base backup
    /// (`pg_basebackup -R`, streaming the WAL it needs) started as a
    /// replica that follows this server. The caller removes it
    /// (``remove()``). Commits wait for it only when this server names it
    /// in `synchronous_standby_names`.
    package func standby() async throws -> TestPostgres {
        let primaryPort = port
        return try await Self.started { directory, binaries in
            try await Self.runAsOwner([
                "pg_basebackup", "-h", "127.0.0.1", "-p", "\(primaryPort)", "-U", Self.user,
                "-D", Self.dataDirectory(in: directory), "-R", "-X", "stream", "-c", "fast", "--no-sync",
            ], binaries: binaries)
        }
    }

    /// Makes this standby a primary (`pg_ctl promote -w`); returns once it
    /// accepts writes.
    package func promote() async throws {
        try await runAsOwner(["pg_ctl", "promote", "-w", "-t", "60", "-D", dataDirectory])
    }
}
