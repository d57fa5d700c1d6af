import BoardApp
import Foundation
import ProcessSpawning
import StateSyncCore
import StateSyncJournal
import StateSyncProtocol
import StateSyncSQLite
import StateSyncServer

/// A retention keeping every entry of the start-up benchmark's journal
/// (the default keeps 10,000 revisions, and the first snapshot after a
/// start would trim the rest).
let keepAll = JournalRetention(revisions: 1 << 40, bytes: 1 << 40)

/// Fills a data directory with `actions` acked increments from `writers`
/// clientIds (rounds of `round` actions, each awaited), a snapshot every
/// `snapshotEvery`, the whole journal kept; returns its last revision.
func buildDataDirectory(_ directory: String, actions: Int, snapshotEvery: UInt64, writers: Int = 8, round: Int = 8_000) async throws -> UInt64 {
    let journal = try await SQLiteJournal.open(configuration: .init(directory: directory, retention: keepAll), logger: quiet)
    let engine = try await SyncEngine<Board>(journal: journal, configuration: .init(snapshotEvery: snapshotEvery), logger: quiet)
    let sink = BenchSink()
    for writer in 0..<writers {
        _ = engine.join(session: SessionInfo(id: "w\(writer)", name: "w\(writer)"), clientID: "c\(writer)", role: .writer, sink: sink)
    }
    var sent = 0
    while sent < actions {
        let count = Swift.min(round, actions - sent)
        for index in sent..<(sent + count) {
            engine.handle(.dispatch(id: "a\(index)", action: increment("n\(index % 100)")), from: "w\(index % writers)")
        }
        sent += count
        await sink.wait(forTotal: sent)
    }
    await engine.shutdown()
    let reopened = try await SQLiteJournal.open(configuration: .init(directory: directory, retention: keepAll), logger: quiet)
    let revision = reopened.lastRevision
    try await reopened.close()
    return revision
}

/// Seconds from opening the journal in `directory` to the first ack of an
/// engine started on it (recovery in process: the last snapshot, the
/// entries after it, the outcomes).
func secondsToFirstAck(directory: String) async throws -> Double {
    let start = now()
    let journal = try await SQLiteJournal.open(configuration: .init(directory: directory, retention: keepAll), logger: quiet)
    let engine = try await SyncEngine<Board>(journal: journal, logger: quiet)
    let sink = BenchSink()
    _ = engine.join(session: SessionInfo(id: "first", name: "first"), clientID: "c-first", role: .writer, sink: sink)
    engine.handle(.dispatch(id: "first", action: increment("first")), from: "first")
    await sink.wait(forTotal: 1)
    let elapsed = now() - start
    await engine.shutdown()
    return elapsed
}

/// Seconds from starting `statesync serve --data directory` (the binary
/// at `executable`, keeping the whole journal) until `GET /health` answers 200, or `nil` when it did
/// not within `timeout` seconds. The server is stopped afterwards.
func secondsUntilHealthy(executable: String, directory: String, timeout: Double = 120) throws -> Double? {
    let port = try freePort()
    let arguments = [
        "serve", "--data", directory, "--port", "\(port)", "--log-level", "error",
        "--journal-retention", "\(keepAll.revisions)", "--journal-retention-bytes", "\(keepAll.bytes)",
    ]
    let start = now()
    let process = try SpawnedChild([executable] + arguments, standardError: .descriptor(FileHandle.standardError.fileDescriptor))
    defer {
        process.send(SIGTERM)
        _ = process.waitUntilExit()
    }
    while now() - start < timeout {
        if healthStatus(port: port) == 200 { return now() - start }
        guard process.isRunning else { return nil }
        usleep(2_000)
    }
    return nil
}

/// A TCP port free on loopback right now (bound to 0, then released).
private func freePort() throws -> UInt16 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
        }
    }
    guard bound else { throw BenchmarkFailure(message: "cannot bind a loopback port: errno \(errno)") }
    return UInt16(bigEndian: address.sin_port)
}

/// The HTTP status of `GET /health` on `port`, or `nil` when nothing answers.
private func healthStatus(port: UInt16) -> Int? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = loopback(port: port)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
    guard connected else { return nil }
    let request = Array("GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)
    guard request.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, 0) }) == request.count else { return nil }
    var response = [UInt8](repeating: 0, count: 64)
    let received = response.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    guard received >= 12 else { return nil }
    return Int(String(decoding: response[9..<12], as: UTF8.self))
}

private func loopback(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
}
