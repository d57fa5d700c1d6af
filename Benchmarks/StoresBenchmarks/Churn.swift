import Foundation
import StateSyncLoad

/// What the server holds at one moment: resident memory, open descriptors, threads.
struct Holdings: CustomStringConvertible {
    let rss: Int
    let descriptors: Int
    let threads: Int

    init(pid: Int32) {
        rss = ProcessResources.rssBytes(pid: pid) ?? 0
        descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        threads = status.split(separator: "\n").first { $0.hasPrefix("Threads:") }
            .flatMap { Int($0.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
    }

    var description: String {
        String(format: "RSS %.1f MiB, %d descriptors, %d threads", Double(rss) / 1_048_576, descriptors, threads)
    }
}

/// The value of the gauge `name` in the server's `/metrics`.
func gauge(_ name: String, of http: LoopbackHTTP) throws -> Double {
    let text = try http.ok("GET", "/metrics")
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + " ") }),
          let value = Double(line.dropFirst(name.count + 1))
    else { throw BenchmarkFailure("no \(name) in /metrics") }
    return value
}

/// `clients` threads, each opening a new store every `every`, dispatching
/// to it and reading it, then leaving it to close idle, for `duration`.
/// Returns how many stores were used.
func churnStores(clients: Int, every: Duration, for duration: Duration, prefix: String, http: LoopbackHTTP) -> Int {
    let deadline = ContinuousClock.now + duration
    let used = LockedCount()
    let group = DispatchGroup()
    for client in 0..<clients {
        group.enter()
        let thread = Thread {
            defer { group.leave() }
            // Spread the clients' starts over one period.
            var next = ContinuousClock.now + every * (Double(client) / Double(clients))
            var round = 0
            while next < deadline {
                let wait = next - ContinuousClock.now
                if wait > .zero { Thread.sleep(forTimeInterval: Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18) }
                let store = "\(prefix)-\(client)-\(round)"
                do {
                    try http.ok("POST", "/api/stores/\(store)/dispatch", body: #"{"type":"increment","counter":"n"}"#)
                    try http.ok("GET", "/api/stores/\(store)/state?path=/counters")
                    used.add()
                } catch {
                    FileHandle.standardError.write(Data("churn: \(error)\n".utf8))
                }
                round += 1
                next += every
            }
        }
        thread.stackSize = 256 * 1_024
        thread.start()
    }
    group.wait()
    return used.value
}

/// Waits until the server has no store open but `main`.
func waitUntilStoresClosed(_ http: LoopbackHTTP) throws {
    let start = ContinuousClock.now
    while try gauge("statesync_stores_open", of: http) > 1 {
        guard ContinuousClock.now - start < .seconds(120) else { throw BenchmarkFailure("stores stayed open") }
        usleep(200_000)
    }
}

/// 5. Churn: stores opened, used and closed by `clients` clients for
/// `duration` after a warm-up of a tenth of it; what the server holds after
/// the warm-up and at the end, each once every store closed.
func churn(clients: Int, duration: Duration, directory: String) throws {
    let arguments = limits + [
        "--data", directory, "--store-idle-seconds", "1", "--max-stores", "10000000", "--max-connections-per-ip", "100000",
    ]
    try withServer(arguments) { http, pid in
        try http.ok("GET", "/api/state?path=/nothing")
        let every = Duration.seconds(6)
        let warm = churnStores(clients: clients, every: every, for: duration / 10, prefix: "warm", http: http)
        try waitUntilStoresClosed(http)
        let afterWarmUp = Holdings(pid: pid)
        print("churn: warm-up \(warm) stores, then \(afterWarmUp)")
        let start = ContinuousClock.now
        let used = churnStores(clients: clients, every: every, for: duration, prefix: "churn", http: http)
        let seconds = Double((ContinuousClock.now - start).components.seconds)
        try waitUntilStoresClosed(http)
        let atEnd = Holdings(pid: pid)
        print(String(format: "churn: %d stores opened, used and closed by %d clients in %.0f s, then %@ (RSS %.2fx after warm-up)",
                     used, clients, seconds, atEnd.description, Double(atEnd.rss) / Double(max(1, afterWarmUp.rss))))
    }
}

/// A count shared by threads.
final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
