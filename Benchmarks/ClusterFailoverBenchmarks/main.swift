import Foundation
import ProcessSpawning
import StateSyncClient
import StateSyncCore
import Synchronization

// Failover time of a cluster: from the SIGKILL of a node to its clients
// converged on the other nodes. Run (release, PostgreSQL running):
//
//   swift build -c release --product statesync
//   swift run -c release cluster-failover-benchmarks postgres://USER@127.0.0.1:5432/DB [CLIENTS]
//
// It starts three `statesync serve --postgres URL` nodes (the release
// `statesync` beside this executable) on free ports, one after the other,
// and checks that the first writes `main` (holds its lease, by its
// `/health`). It connects CLIENTS Swift clients (default 300) with the
// default reconnect policy, client i naming the three nodes starting with
// node i % 3, each subscribed to /counters, and 30 writers through the
// other two nodes, each dispatching one action after another.
// Then it SIGKILLs the writer of `main` and at once dispatches one action
// through node 2: a client has converged when its mirror holds that
// action's revision. It prints how long after the SIGKILL each live
// writer's first dispatch sent after it was acknowledged (writes resumed),
// and, for the killed node's clients and for the others, how long after
// the SIGKILL they converged (p50, p99, max) (BENCHMARKS.md, "## PostgreSQL and the cluster").
// With STATESYNC_NODE_LOGS=DIR the nodes' logs go to DIR/node-N.log.

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: cluster-failover-benchmarks POSTGRES_URL [CLIENTS]\n".utf8))
    exit(2)
}
let postgresURL = arguments[1]
let clientCount = arguments.count > 2 ? Int(arguments[2]) ?? 300 : 300
let statesync = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    .deletingLastPathComponent().appendingPathComponent("statesync")

/// A `statesync serve --postgres` child and its port.
struct Node {
    let process: SpawnedChild
    let port: Int
    var url: String { "ws://127.0.0.1:\(port)/sync" }
}

/// Where the nodes' logs go: `node-N.log` in the directory
/// `STATESYNC_NODE_LOGS` names, else nowhere (they would bury the result).
let logDirectory = ProcessInfo.processInfo.environment["STATESYNC_NODE_LOGS"]

/// Starts node `index` on a free port; returns once it prints its URL.
func startNode(_ index: Int) throws -> Node {
    // Every client comes from 127.0.0.1: allow them all to join at once.
    let arguments = ["serve", "--port", "0", "--postgres", postgresURL,
                     "--joins-per-second", "100000", "--join-burst", "100000", "--max-connections-per-ip", "100000"]
    let process = try SpawnedChild(
        [statesync.path] + arguments, standardOutput: .pipe,
        standardError: logDirectory.map { .file("\($0)/node-\(index).log") } ?? .discarded)
    let output = process.standardOutput!   // asked for as a pipe: its reading end exists
    var text = ""
    while !text.contains("/sync\n") {
        let data = output.availableData
        guard !data.isEmpty else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "a node exited: \(text)"]) }
        text += String(decoding: data, as: UTF8.self)
    }
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("statesync listening on ") }),
          let port = line.split(separator: ":").last?.split(separator: "/").first.flatMap({ Int($0) })
    else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "no URL printed: \(text)"]) }
    return Node(process: process, port: port)
}

/// The value at percentile `p` (0…100) of `sorted` (nearest rank).
func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
    return sorted[min(sorted.count, max(rank, 1)) - 1]
}

/// Milliseconds from `killed` until `client`'s mirror holds revision `rev`,
/// or `nil` when it does not within `limit`.
func convergence(of client: StateSyncClient, at rev: UInt64, since killed: ContinuousClock.Instant, limit: Duration) async -> Double? {
    await withTaskGroup(of: Double?.self) { race in
        race.addTask {
            for await heard in client.observeStatus(\.rev) where heard >= rev {
                return milliseconds(killed.duration(to: .now))
            }
            return nil
        }
        race.addTask {
            try? await Task.sleep(for: limit)   // cancelled once the client converged
            return nil
        }
        let first = await race.next() ?? nil
        race.cancelAll()
        return first
    }
}

/// One line of the result: how many clients did it, and when.
func line(_ name: String, _ values: [Double?], did: String = "converged") -> String {
    let sorted = values.compactMap { $0 }.sorted()
    return "\(name): \(sorted.count) clients, \(did) after p50 \(String(format: "%.0f", percentile(sorted, 50))) ms, "
        + "p99 \(String(format: "%.0f", percentile(sorted, 99))) ms, max \(String(format: "%.0f", sorted.last ?? 0)) ms"
}

/// Milliseconds of `duration`.
func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
}

/// What `/health` on `port` says of who writes `main` (`this`, another node's id, `unknown`).
func writerOfMain(port: Int) throws -> String? {
    let curl = try SpawnedChild(["/usr/bin/env", "curl", "-s", "--max-time", "2", "http://127.0.0.1:\(port)/health"], standardOutput: .pipe)
    let body = curl.standardOutput!.readDataToEndOfFile()   // asked for as a pipe: its reading end exists
    _ = curl.waitUntilExit()
    let health = try? JSONParser().parse(Array(body))
    return health?["writer"]?.stringValue
}

/// A client of one node that dispatches one action after another until
/// stopped, recording when each was sent and acknowledged.
final class SteadyWriter: Sendable {
    let client: StateSyncClient
    private let record = Mutex<(sends: [(sent: ContinuousClock.Instant, acked: ContinuousClock.Instant)], stopped: Bool)>(([], false))

    init(url: String, index: Int) {
        var configuration = StateSyncClientConfiguration(url: url)
        configuration.clientID = "steady-\(index)"
        client = StateSyncClient(configuration: configuration)
    }

    /// Dispatches until ``stop()``; a dispatch that fails is sent again as a new one.
    func run() async {
        while !record.withLock({ $0.stopped }) {
            let sent = ContinuousClock.now
            guard (try? await client.dispatch(["type": "increment", "counter": "steady"])) != nil else { continue }
            record.withLock { $0.sends.append((sent, .now)) }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    func stop() { record.withLock { $0.stopped = true } }

    /// Milliseconds from `instant` to the ack of the first dispatch sent after it.
    func resumed(after instant: ContinuousClock.Instant) -> Double? {
        record.withLock { $0.sends.first { $0.sent >= instant } }.map { milliseconds(instant.duration(to: $0.acked)) }
    }
}

/// SIGTERM to the nodes still running, and waits for them.
func stop(_ nodes: [Node]) {
    for node in nodes {
        node.process.send(SIGTERM)
        _ = node.process.waitUntilExit()
    }
}

let nodes = try (0..<3).map { try startNode($0) }
let holderDeadline = ContinuousClock.now + .seconds(10)
while try writerOfMain(port: nodes[0].port) != "this" {
    guard ContinuousClock.now < holderDeadline else {
        FileHandle.standardError.write(Data("cluster-failover-benchmarks: the first node does not write main\n".utf8))
        stop(nodes)
        exit(1)
    }
    try await Task.sleep(for: .milliseconds(50))
}
let steadyWriters = (0..<30).map { SteadyWriter(url: nodes[1 + $0 % 2].url, index: $0) }

let clients = (0..<clientCount).map { index in
    let first = index % nodes.count
    var configuration = StateSyncClientConfiguration(urls: (0..<nodes.count).map { nodes[(first + $0) % nodes.count].url })
    configuration.clientID = "failover-\(index)"
    return StateSyncClient(configuration: configuration)
}
let writer = StateSyncClient(configuration: StateSyncClientConfiguration(url: nodes[1].url))

do {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for client in clients + [writer] + steadyWriters.map(\.client) { group.addTask { try await client.run() } }
        for client in clients {
            try await client.waitUntilOnline()
            try await client.subscribe("/counters")
        }
        try await writer.waitUntilOnline()
        _ = try await writer.dispatch(["type": "increment", "counter": "failover"])
        for steady in steadyWriters { try await steady.client.waitUntilOnline() }
        let steadyRuns = Task { await withTaskGroup(of: Void.self) { runs in for steady in steadyWriters { runs.addTask { await steady.run() } } } }
        try await Task.sleep(for: .seconds(2))

        let killed = ContinuousClock.now
        nodes[0].process.send(SIGKILL)
        let rev = try await writer.dispatch(["type": "increment", "counter": "failover"])
        var converged: [Int: Double?] = [:]
        await withTaskGroup(of: (Int, Double?).self) { waits in
            for (index, client) in clients.enumerated() {
                waits.addTask { (index, await convergence(of: client, at: rev, since: killed, limit: .seconds(30))) }
            }
            for await (index, milliseconds) in waits { converged[index] = milliseconds }
        }
        try await Task.sleep(for: .seconds(1))
        for steady in steadyWriters { steady.stop() }
        await steadyRuns.value
        print(line("writers through the live nodes", steadyWriters.map { $0.resumed(after: killed) }, did: "wrote again"))
        print(line("clients of the killed node", converged.filter { $0.key % nodes.count == 0 }.map(\.value)))
        print(line("clients of the live nodes ", converged.filter { $0.key % nodes.count != 0 }.map(\.value)))
        let missing = converged.values.filter { $0 == nil }.count
        if missing > 0 { print("\(missing) clients had not converged 30 s after the SIGKILL") }
        for client in clients + [writer] + steadyWriters.map(\.client) { await client.close() }
        try await group.waitForAll()
    }
    stop(nodes)
} catch {
    FileHandle.standardError.write(Data("cluster-failover-benchmarks: \(error)\n".utf8))
    stop(nodes)
    exit(1)
}
