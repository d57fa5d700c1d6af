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
            and the value: {"path":"/counters/hits","rev":7,"value":3} (rev: the revision that \
            made the change). Without PATH the whole state is watched. After a \
            dropped connection the client reconnects and resumes.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @OptionGroup var store: StoreSelection

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
        let store = self.store.name
        try await ClientSession.run(connection.configuration()) { client in
            // Every change in order, each with the revision that made it.
            var feeds: [(path: String, changes: AsyncStream<MirrorChange>)] = []
            for path in paths { feeds.append((path, try await client.store(store).changes(at: path))) }
            try await ClientSession.untilStopped { [feeds] in
                await withTaskGroup(of: Void.self) { group in
                    for feed in feeds {
                        group.addTask {
                            for await change in feed.changes {
                                printLine(format.line(path: feed.path, rev: change.rev, value: change.value))
                            }
                        }
                    }
                }
            }
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
