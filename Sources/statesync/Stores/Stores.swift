import ArgumentParser

/// `statesync stores`: lists (the default) or deletes a running server's stores through
/// its HTTP API (an admin token when the server requires tokens).
struct Stores: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the stores of a running server, or delete one.",
        discussion: """
            Uses the server's HTTP API on the port of --url (GET /api/stores, DELETE /api/stores/NAME); \
            with tokens, both need an admin token (--token). Exits 1 when the server cannot be reached \
            or refuses (unauthorized, not an admin, no such store, main, sessions in the store).
            """,
        subcommands: [StoresList.self, StoresDelete.self],
        defaultSubcommand: StoresList.self
    )
}
