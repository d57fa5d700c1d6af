import Foundation
import ProcessSpawning
import StateSyncLoad

// The cost of stores in a real `statesync serve` (release build), over its HTTP API:
//   swift build -c release && swift run -c release stores-benchmarks [.build/release/statesync]
//   swift run -c release stores-benchmarks churn [MINUTES] [.build/release/statesync]
// 1. memory per open idle store (RSS after opening N stores, minus before, over N);
// 2. creating a store: latency of the first request to a new name (a dispatch, whose
//    action is stored, and a read);
// 3. opening a stored store of 1 MB: latency of the first request after it closed idle
//    (its final snapshot holds everything), and after a crash (SIGKILL: the snapshot is
//    1,000 entries behind, which the store replays);
// 4. listing the stores: `GET /api/stores` pages of 10 and 1,000 over 20,000 stored stores;
// 5. `churn`: 1,000 clients each opening a new store every 6 s, using and leaving it
//    (closed after 1 s idle), for MINUTES after a warm-up of a tenth of that: the
//    server's RSS, descriptors and threads after the warm-up and at the end.
// Each request is one HTTP/1.1 request on a fresh loopback connection, so each figure
// includes a TCP connect (~0.1 ms here).

let arguments = Array(CommandLine.arguments.dropFirst())
let churnMinutes: Int? = arguments.first == "churn" ? Int(arguments.dropFirst().first ?? "") ?? 10 : nil
let executable = arguments.last { $0.contains("/") } ?? ".build/release/statesync"

/// A `statesync serve` with `arguments`, sent `stop` (default SIGTERM) at `body`'s end.
func withServer<T>(_ arguments: [String], stop: Int32 = SIGTERM, _ body: (LoopbackHTTP, Int32) throws -> T) throws -> T {
    let port = try freeLoopbackPort()
    let child = try SpawnedChild(
        [executable, "serve", "--port", "\(port)", "--log-level", "error", "--messages-per-second", "1000000", "--burst", "1000000"]
            + arguments,
        standardError: .descriptor(FileHandle.standardError.fileDescriptor))
    defer {
        child.send(stop)
        _ = child.waitUntilExit()
    }
    let http = LoopbackHTTP(port: port)
    let start = Date()
    while (try? http.request("GET", "/health").status) != 200 {
        guard Date().timeIntervalSince(start) < 30, child.isRunning else { throw BenchmarkFailure("serve did not start") }
        usleep(10_000)
    }
    // Another process that took the port meanwhile would have answered instead.
    guard child.isRunning else { throw BenchmarkFailure("serve exited: port \(port) was taken") }
    return try body(http, child.processIdentifier)
}

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = (ContinuousClock.now - start).components
    return Double(elapsed.seconds) * 1_000 + Double(elapsed.attoseconds) / 1e15
}

func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

func report(_ name: String, _ values: [Double]) {
    print(String(format: "%@: n=%d p50=%.2f ms p99=%.2f ms max=%.2f ms", name, values.count,
                 percentile(values, 0.5), percentile(values, 0.99), values.max() ?? 0))
}

let limits = ["--max-resident-stores", "20000", "--max-stores", "1000000", "--store-creations-per-second", "1000000",
              "--store-idle-seconds", "3600"]

/// 1. Memory per open idle store.
func residentMemory(stores: Int, storage: [String]) throws {
    try withServer(limits + storage) { http, pid in
        try http.ok("GET", "/api/state?path=/nothing")
        let before = ProcessResources.rssBytes(pid: pid) ?? 0
        for index in 0..<stores { try http.ok("GET", "/api/stores/idle-\(index)/state?path=/nothing") }
        let after = ProcessResources.rssBytes(pid: pid) ?? 0
        print(String(format: "open idle stores (%@): %d stores, RSS %.1f → %.1f MiB, %.1f KiB per store",
                     storage.joined(separator: " "), stores, Double(before) / 1_048_576, Double(after) / 1_048_576,
                     Double(after - before) / Double(stores) / 1_024))
    }
}

/// 2. Creating stores.
func creation(stores: Int, directory: String) throws {
    try withServer(limits + ["--data", directory]) { http, _ in
        try http.ok("GET", "/api/state?path=/nothing")
        var times: [Double] = []
        for index in 0..<stores {
            times.append(try milliseconds { try http.ok("POST", "/api/stores/new-\(index)/dispatch", body: #"{"type":"increment","counter":"n"}"#) })
        }
        report("create a store and store its first action (SQLite)", times)
        var created: [Double] = []
        for index in 0..<stores { created.append(try milliseconds { try http.ok("GET", "/api/stores/read-\(index)/state?path=/counters") }) }
        report("create a store by reading it (SQLite; no action stored)", created)
        var reads: [Double] = []
        for index in 0..<stores { reads.append(try milliseconds { try http.ok("GET", "/api/stores/new-\(index)/state?path=/counters") }) }
        report("read an open store (the same request, for comparison)", reads)
    }
}

/// 3. Opening a stored store of 1 MB: after it closed idle, and after a crash.
func reopening(times count: Int, directory: String) throws {
    let title = String(repeating: "x", count: 200)
    let arguments = ["--snapshot-every", "5000", "--max-todos", "100000"]
    try withServer(["--data", directory] + arguments, stop: SIGKILL) { http, _ in
        for _ in 0..<6_000 {
            try http.ok("POST", "/api/stores/big/dispatch", body: #"{"type":"addTodo","title":"\#(title)"}"#)
        }
        let size = try http.ok("GET", "/api/stores/big/state?path=/todos").utf8.count
        print("stored store: \(size / 1_024) KiB of todos, 6,000 revisions, a snapshot every 5,000")
    }
    // Killed: "big" has its snapshot at 5,000 and 1,000 entries after it. Each crash run starts from a copy.
    let crashed = directory + "-crashed"
    try FileManager.default.copyItem(atPath: directory, toPath: crashed)
    var afterCrash: [Double] = []
    for run in 0..<count {
        let copy = "\(directory)-run-\(run)"
        try FileManager.default.copyItem(atPath: crashed, toPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try withServer(["--data", copy] + arguments, stop: SIGKILL) { http, _ in
            afterCrash.append(try milliseconds { try http.ok("GET", "/api/stores/big/state?path=/nothing") })
        }
    }
    report("open a stored store after a crash (1 MB snapshot, 1,000 entries to replay)", afterCrash)
    // Closed after 1 s idle, so that reopening it closes no other store.
    try withServer(["--data", directory, "--store-idle-seconds", "1", "--snapshot-every", "5000"]) { http, _ in
        try http.ok("GET", "/api/stores/big/state?path=/nothing")   // the replay after the crash, not timed
        var afterIdle: [Double] = []
        for _ in 0..<count {
            // Wait until "big" is closed (its final snapshot written: the listing says it is not open
            // as soon as it starts closing), then time its reopening.
            try waitUntilStoresClosed(http)
            afterIdle.append(try milliseconds { try http.ok("GET", "/api/stores/big/state?path=/nothing") })
        }
        report("open a stored store closed idle (1 MB snapshot, nothing to replay)", afterIdle)
    }
}

/// 4. Listing `stores` stored stores (each made by one dispatch, closed after 1 s idle):
/// a page of 10 from the start and from the middle, and a page of 1,000.
func listing(stores: Int, directory: String) throws {
    try withServer(limits + ["--data", directory, "--store-idle-seconds", "1"]) { http, _ in
        for index in 0..<stores {
            try http.ok("POST", "/api/stores/listed-\(index)/dispatch", body: #"{"type":"increment","counter":"n"}"#)
        }
        try waitUntilStoresClosed(http)
        for (name, query) in [("a page of 10", "limit=10"), ("a page of 10 from the middle", "limit=10&after=listed-\(stores / 2)"),
                              ("a page of 1,000", "limit=1000")] {
            let times = try (0..<20).map { _ in try milliseconds { try http.ok("GET", "/api/stores?\(query)") } }
            report("list \(stores) stored stores, \(name)", times)
        }
    }
}

do {
    let base = NSTemporaryDirectory() + "stores-bench-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: base) }
    if let churnMinutes {
        // 100,000 stores in 10 minutes: 1,000 clients, a store each every 6 s.
        try churn(clients: 1_000, duration: .seconds(60 * churnMinutes), directory: base + "/churn")
    } else {
        try residentMemory(stores: 10_000, storage: ["--memory"])
        try residentMemory(stores: 10_000, storage: ["--data", base + "/resident"])
        try creation(stores: 1_000, directory: base + "/created")
        try reopening(times: 100, directory: base + "/reopened")
        try listing(stores: 20_000, directory: base + "/listed")
    }
} catch {
    FileHandle.standardError.write(Data("stores-benchmarks: \(error)\n".utf8))
    exit(1)
}
