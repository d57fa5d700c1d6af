import ArgumentParser
import StateSyncClient
import StateSyncCore

/// `statesync stores [list]`: every store of the server, paging through
/// `GET /api/stores` until its end, as a table or as JSON.
struct StoresList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the stores: name, open (resident) or not, revision, sessions, bytes.",
        discussion: """
            Prints a table, one store a line in name order (REV only for an open store; BYTES \
            its files on disk, or its state's size with --memory; - when the server cannot say). \
            --json prints one JSON array of {"name","open","rev","sessions","bytes"} objects instead.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Flag(help: "Print a JSON array instead of a table.")
    var json = false

    @Option(help: ArgumentHelp("Stores asked for per request, 1 to 1000.", valueName: "count"))
    var pageSize = StoreAdminClient.maxPageSize

    func validate() throws {
        guard (1...StoreAdminClient.maxPageSize).contains(pageSize) else {
            throw ValidationError("--page-size must be 1 to \(StoreAdminClient.maxPageSize)")
        }
    }

    func run() async throws {
        let stores = try await StoreAdmin.run(connection) { admin throws(StoreAdminError) in try await admin.allStores(pageSize: pageSize) }
        if json {
            printLine(JSONSerializer(style: .pretty).string(for: .array(stores.map(StoreTable.json))))
        } else {
            printLine(String(StoreTable.text(stores).dropLast()))
        }
    }
}
