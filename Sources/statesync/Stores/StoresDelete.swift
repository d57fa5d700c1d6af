import ArgumentParser
import StateSyncClient
import StateSyncProtocol

/// `statesync stores delete NAME`: deletes one store and what it stored
/// (`DELETE /api/stores/NAME`).
struct StoresDelete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a store and what it stored, for good.",
        discussion: """
            Refused (exit 1) for main, for a store with sessions in it (they must disconnect first), \
            and for a store that does not exist. Prints "deleted NAME".
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The store to delete.", valueName: "name"))
    var name: String

    func validate() throws {
        guard StoreName.isValid(name) else { throw ValidationError("\"\(name)\" is not a store name: \(StoreName.rule)") }
    }

    func run() async throws {
        let store = try StoreName(name)
        try await StoreAdmin.run(connection) { admin throws(StoreAdminError) in try await admin.delete(store) }
        printLine("deleted \(store)")
    }
}
