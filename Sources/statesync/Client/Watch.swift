import ArgumentParser
import StateSyncClient
import StateSyncCore

/// `statesync watch PATH…`: prints the value at each path now and each time
/// it changes, until Ctrl-C.
struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the values at paths now and every time they change, until Ctrl-C.",
        discussion: """
            One line per value, as compact JSON; with several paths each line starts with its path \
            (/counters/hits 3). With --json each line is an object with the revision, the path \
            and the value: {"path":"/counters/hits","rev":7,"value":3} (rev: the revision the \
            client reached with the change). Without PATH the whole state is watched. After a \
            dropped connection the client reconnects and resumes.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Flag(help: "Print one JSON object per change (NDJSON) with rev, path and value.")
    var json = false

    @Argument(help: "JSON Pointers such as /todos or /counters/hits (default: the whole state).")
    var paths: [String] = []

    func validate() throws {
        for path in paths { try PathArgument.validate(path) }
    }

    func run() async throws {
        let paths = self.paths.isEmpty ? [""] : self.paths
        let format = WatchFormat(json: json, showsPath: paths.count > 1)
        try await ClientSession.run(connection.configuration()) { client in
            // Every change, unbuffered and in order: a callback on the mirror
            // of each path, called as the mirror changes, with the revision
            // the client had until then.
            let (changes, sink) = AsyncStream.makeStream(of: (path: String, value: JSONValue, before: UInt64).self)
            var feeds: [(TypedMirror<JSONValue>, ObservationToken)] = []
            for path in paths {
                let mirror = try await client.mirror(JSONValue.self, at: path)
                feeds.append((mirror, mirror.subscribe(\.self) { value in sink.yield((path, value, client.status.rev)) }))
            }
            try await ClientSession.untilStopped(client) {
                for await change in changes {
                    let rev = await Self.revision(of: client, after: change.before)
                    printLine(format.line(path: change.path, rev: rev, value: change.value))
                }
            }
            withExtendedLifetime(feeds) {}
        }
    }
}

extension Watch {
    /// The revision of a change seen when `client` was at `before`. The
    /// client raises its revision right after changing its mirror, so this
    /// waits for a revision above `before`, briefly: a first value (or a
    /// re-sent snapshot) belongs to the revision the client already has.
    static func revision(of client: StateSyncClient, after before: UInt64) async -> UInt64 {
        if client.status.rev > before { return client.status.rev }
        return await withTaskGroup(of: UInt64?.self) { group in
            group.addTask {
                for await rev in client.observeStatus(\.rev) where rev > before { return rev }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(50))   // cancelled when the revision came: nothing to report
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? client.status.rev
        }
    }
}

/// How `watch` prints one change.
struct WatchFormat: Sendable {
    /// NDJSON objects instead of bare values.
    var json: Bool
    /// Whether bare lines start with their path (when watching several).
    var showsPath: Bool

    /// The line for `value` at `path`, seen at revision `rev`.
    func line(path: String, rev: UInt64, value: JSONValue) -> String {
        if json {
            let object: JSONValue = ["rev": .integer(Int64(clamping: rev)), "path": .string(path), "value": value]
            return object.description
        }
        return showsPath ? "\(path.isEmpty ? "\"\"" : path) \(value)" : value.description
    }
}
