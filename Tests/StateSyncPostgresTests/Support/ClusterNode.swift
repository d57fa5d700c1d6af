import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// One real `statesync serve --postgres` node of a test cluster.
struct ClusterNode: Sendable {
    /// Rate limits high enough for the tests' dispatch streams.
    static let unlimited = ["--messages-per-second", "100000", "--burst", "100000", "--bytes-per-second", "100000000"]

    let process: ServeProcess
    let port: Int

    /// Its WebSocket URL.
    var url: String { "ws://127.0.0.1:\(port)/sync" }

    /// Starts a node on `postgres`'s store with `options` added.
    static func start(_ postgres: TestPostgres, _ options: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) async throws -> ClusterNode {
        try await start(url: postgres.url, options: options, sourceLocation: sourceLocation)
    }

    /// Starts a node on the PostgreSQL at `url`, on `port` (0: a free one)
    /// with `options` added. A given port another process holds for a
    /// moment (a restarted node's, taken as an outgoing connection's) is
    /// tried again for up to 10 s.
    static func start(
        url: String, port: Int = 0, options: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ClusterNode {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let process = try ServeProcess(["serve", "--port", "\(port)", "--postgres", url] + unlimited + options)
            if let listening = try await process.waitForPort() { return ClusterNode(process: process, port: listening) }
            let said = process.standardError
            try #require(port != 0 && said.contains("in use") && ContinuousClock.now < deadline, "no URL printed: \(said)",
                         sourceLocation: sourceLocation)
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    /// The body of `GET /api/state` (`{"rev":N,"value":…}`), as the node sends it.
    func stateBody() async throws -> String {
        try await body(of: "/api/state")
    }

    /// The body of `GET path`, as the node sends it.
    func body(of path: String) async throws -> String {
        let curl = try #require(Tools.tool("curl"), "curl is not on PATH: run scripts/test, or apt-get install curl")
        return try await Subprocess.run([curl.path, "-s", "--max-time", "20", "http://127.0.0.1:\(port)\(path)"]).output
    }
}

/// A subscriber of the whole state on a node, to wait for its revisions.
/// Joining is journaled (presence), so a test opens its watchers once,
/// before it waits for the cluster to settle.
final class RevisionWatcher {
    private let client: ProtocolClient
    /// The last revision the node published to this watcher.
    private(set) var revision: Int64 = 0

    /// Joins `node` and subscribes to its whole state.
    init(_ node: ClusterNode) async throws {
        client = try await ProtocolClient.joined(node.url)
        try await client.send(#"{"type":"subscribe","id":"w","path":""}"#)
    }

    /// Returns once the node has published `target` or later.
    func waitUntilPublished(_ target: Int64) async throws {
        while revision < target {
            let message = try await client.receive()
            if ["snapshot", "patch"].contains(message["type"]?.stringValue), let rev = message["rev"]?.int64Value { revision = rev }
        }
    }

    /// Closes the connection.
    func close() async throws {
        try await client.close()
    }
}

/// Reads a test cluster's store and checks its invariants.
enum ClusterChecks {
    /// The store's head revision.
    static func head(on postgres: TestPostgres) async throws -> Int64 {
        let text = try await PostgresQueries.text(
            "SELECT head_revision::text FROM statesync_stores WHERE store_id = 'default'", on: postgres)
        return try #require(text.flatMap { Int64($0) })
    }

    /// Waits until every node published the store's head (read again until
    /// it stays: the nodes' own presence writes move it), and returns each
    /// node's `GET /api/state` body (the HTTP API's requests are not
    /// journaled in presence).
    static func converged(_ nodes: [ClusterNode], on postgres: TestPostgres) async throws -> [String] {
        var watchers: [RevisionWatcher] = []
        for node in nodes { watchers.append(try await RevisionWatcher(node)) }
        while true {
            let head = try await head(on: postgres)
            for watcher in watchers { try await watcher.waitUntilPublished(head) }
            let bodies = try await nodes.asyncMap { try await $0.stateBody() }
            if try await Self.head(on: postgres) == head {
                for watcher in watchers { try await watcher.close() }
                return bodies
            }
        }
    }

    /// Every revision of the journal, contiguous from 1.
    static func expectContiguous(on postgres: TestPostgres, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let revisions = try await PostgresQueries.revisions(on: postgres)
        #expect(revisions == Array(1...Int64(max(1, revisions.count))), "revisions are not contiguous", sourceLocation: sourceLocation)
    }
}

extension Array where Element: Sendable {
    /// `transform` of each element, in order, one at a time.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
