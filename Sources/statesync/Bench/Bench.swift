import ArgumentParser
import Foundation
import StateSyncLoad
import StateSyncServer
import WebSocket

/// `statesync bench`: opens many real WebSocket clients against a server,
/// drives a write load, and measures acks and deliveries.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Load-test a server: N clients subscribe, W writers dispatch at a rate, latencies are measured.",
        discussion: """
            Every client subscribes to the --subscribe paths; the first --writers clients also dispatch \
            --action, --rate times a second in all, for --duration seconds. Measured with HdrHistogram: \
            dispatch→ack at the writer, dispatch→patch at every subscriber the action concerns (matched \
            by revision), throughput, errors, rejects and base gaps (must be 0).
            With several --url (the nodes of a cluster), client i connects to the i-th in turn, and the \
            delivery latency is also split into same node (subscriber on the writer's node) and other node.
            With --stores N, client i (writers too) works in the store bench-(i mod N), created on first use; \
            deliveries and gaps are matched per store, and a stores line names the slowest store's delivery p99.
            Placeholders: {i} is the client's index (in paths), {n} a random number below --clients and \
            {seq} the writer's sequence number (in actions). Example, each client its own counter: \
            --subscribe '/counters/c{i}' --action '{"type":"increment","counter":"c{n}"}'.
            Exit status: 0 when there were no gaps, no errors and every expected delivery arrived; 1 otherwise.
            The server limits each connection to 200 messages/s by default: keep --rate / --writers below that.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Option(help: "Connections to open (writers included).")
    var clients = 100

    @Option(parsing: .upToNextOption, help: "Paths every client subscribes to (default /counters).")
    var subscribe: [String] = []

    @Option(help: "How many of the clients also dispatch.")
    var writers = 1

    @Option(help: "Actions per second, all writers together.")
    var rate = 10.0

    @Option(help: "Stores to spread the clients and writers over in turn (bench-0, bench-1, …); 0 for main only.")
    var stores = 0

    @Option(help: "Seconds the writers dispatch (after every client is subscribed).")
    var duration = 10.0

    @Option(help: "The action to dispatch, a JSON template (default: increment counter hits).")
    var action: String?

    @Option(help: "The state path the action changes (derived for increment; else the whole state).")
    var actionPath: String?

    @Option(help: "Write a self-contained HTML report (charts as inline SVG) to this file.")
    var report: String?

    @Option(help: "Write the measurements as JSON to this file (- for stdout).")
    var json: String?

    @Flag(help: "Start a server for the run (this executable's serve, on a free loopback port) and stop it after.")
    var spawnServer = false

    @Option(help: "With --spawn-server: the server's data directory (default: in memory).")
    var serverData: String?

    @Option(help: "The server's process id, when it runs on this machine: its CPU and memory are measured.")
    var serverPid: Int32?

    @Option(help: "Event-loop threads of the load generator (default: one per core).")
    var threads = LoadScenario.coreCount

    @Option(help: "Handshakes in flight at once while connecting.")
    var connectConcurrency = LoadScenario().connectConcurrency

    @Option(help: "Connections started per second at most while connecting.")
    var connectRate = LoadScenario().connectRate

    @Option(help: ArgumentHelp(
        "Local addresses to connect from, in turn (repeat it or separate with commas). Default: for a loopback server and more than \(LoadScenario.clientsPerSourceAddress) clients, 127.0.0.1, 127.0.0.2, … (\(LoadScenario.clientsPerSourceAddress) each: one address has about 28,000 ports, and connects slow down as they fill); else the system's choice.",
        valueName: "address"))
    var sourceAddresses: [String] = []

    @Option(help: ArgumentHelp(
        "Seconds into the run at which every connection is dropped at once; every client reconnects, resumes its subscriptions with since and sends its unanswered actions again. Reported: the time until all resumed, and the server's peak memory.",
        valueName: "seconds"))
    var reconnectStorm: Double?

    @Option(help: "Seconds to wait for the last answers and deliveries after the run.")
    var drainTimeout = 10.0

    @Flag(help: "No progress bar.")
    var quiet = false

    /// What `statesync serve` allows each connection (``SessionConfiguration/messagesPerSecond``).
    private static let serverMessageRate = Double(SessionConfiguration().messagesPerSecond)

    func validate() throws {
        guard serverData == nil || spawnServer else { throw ValidationError("--server-data needs --spawn-server") }
        guard serverPid == nil || !spawnServer else { throw ValidationError("--server-pid and --spawn-server exclude each other") }
        guard duration > 0, duration.isFinite else { throw ValidationError("--duration \(duration) must be a positive number of seconds") }
        guard drainTimeout >= 0, drainTimeout.isFinite else { throw ValidationError("--drain-timeout \(drainTimeout) must be 0 or more seconds") }
        if let reconnectStorm, !(reconnectStorm.isFinite && reconnectStorm >= 0 && reconnectStorm < duration) {
            throw ValidationError("--reconnect-storm \(reconnectStorm) must be from 0 to less than --duration (\(duration)) seconds")
        }
    }

    func run() async throws {
        // A spawned server inherits the limit: its connections and this process's.
        let openFiles = OpenFileLimit.raise(atLeast: (spawnServer ? 2 : 1) * clients + 1_024)
        if openFiles < clients + 64 {
            printError("statesync bench: warning: the open-file limit is \(openFiles), below the \(clients) connections asked for; raise it (ulimit -n) or expect failed connects")
        }
        var scenario = try makeScenario()
        if writers > 0, rate / Double(writers) > Self.serverMessageRate {
            printError("statesync bench: warning: \(rate / Double(writers)) actions/s per writer is above the \(Int(Self.serverMessageRate)) messages/s a server allows each connection by default; expect rate_limited rejects (use more --writers)")
        }
        let server = spawnServer ? try await SpawnedServer(data: serverData, clients: clients, stores: stores) : nil
        if let server { scenario.url = server.url }
        let bar = ProgressBar()
        let result: LoadResult
        do {
            let runner = LoadRunner(scenario: scenario, serverPID: server?.pid ?? serverPid)
            result = try await runner.run { progress in
                if !quiet { bar.show(progress) }
            }
        } catch {
            _ = await server?.stop()
            throw CommandFailure(message: "\(error)")
        }
        bar.finish()
        if let server {
            let status = await server.stop()
            if status != 0 {
                printError("statesync bench: the spawned server exited with status \(status): \(server.standardError)")
            }
        }
        try write(result)
        if !result.passed { throw ExitCode(1) }
    }

    private func makeScenario() throws(CommandFailure) -> LoadScenario {
        do {
            var scenario = LoadScenario(url: ConnectionOptions.defaultURL, token: connection.token, clients: clients)
            scenario.urls = connection.resolvedURLs
            if let name = connection.name { scenario.clientPrefix = name }
            if !subscribe.isEmpty { scenario.subscriptions = subscribe.map(Template.init) }
            scenario.writers = writers
            scenario.stores = stores
            scenario.rate = rate
            scenario.duration = .milliseconds(Int64(duration * 1_000))
            if let action { scenario.action = try ActionTemplate(action, path: actionPath) }
            else if let actionPath { scenario.action = try ActionTemplate(ActionTemplate.incrementHits.action.description, path: actionPath) }
            scenario.threads = threads
            scenario.connectConcurrency = connectConcurrency
            scenario.connectRate = connectRate
            scenario.sourceAddresses = sourceAddresses.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
            scenario.spreadOverLoopback()
            scenario.drainTimeout = .milliseconds(Int64(drainTimeout * 1_000))
            scenario.reconnectStormAt = reconnectStorm.map { .milliseconds(Int64(($0 * 1_000).rounded())) }
            try scenario.validate()
            return scenario
        } catch {
            throw CommandFailure(message: "\(error)")
        }
    }

    private func write(_ result: LoadResult) throws(CommandFailure) {
        // With --json -, stdout carries only the JSON.
        let human: (String) -> Void = json == "-" ? { printError($0) } : { printLine($0) }
        human(ResultText.table(result))
        human(ResultText.summaryLine(result))
        if let json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            do {
                let data = try encoder.encode(result)
                if json == "-" {
                    printLine(String(decoding: data, as: UTF8.self))
                } else {
                    try data.write(to: URL(fileURLWithPath: json))
                }
            } catch {
                throw CommandFailure(message: "cannot write the JSON results to \(json): \(error.localizedDescription)")
            }
        }
        if let report {
            do {
                try Data(HTMLReport.render(result).utf8).write(to: URL(fileURLWithPath: report))
            } catch {
                throw CommandFailure(message: "cannot write the report to \(report): \(error.localizedDescription)")
            }
        }
    }
}
