import ArgumentParser
import StateSyncClient
import StateSyncCore

/// `statesync get PATH`: reads one value from the server and prints it as
/// pretty JSON.
struct Get: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the value at a path as pretty JSON, read once from the server.",
        discussion: """
            PATH is a JSON Pointer (RFC 6901): /todos, /todos/0/title, /counters/hits. \
            Without PATH (or with "") the whole state is printed. A path where nothing is prints null.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @OptionGroup var store: StoreSelection

    @Argument(help: "A JSON Pointer such as /todos (default: the whole state).")
    var path = ""

    func validate() throws {
        try PathArgument.validate(path)
    }

    func run() async throws {
        let path = self.path, store = self.store.name
        let value = try await ClientSession.run(connection.configuration()) { client in
            try await client.store(store).get(path).value
        }
        printLine(JSONSerializer(style: .pretty).string(for: value))
    }
}
