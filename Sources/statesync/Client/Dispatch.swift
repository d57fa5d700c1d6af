import ArgumentParser
import StateSyncClient
import StateSyncCore

/// `statesync dispatch ACTION`: sends one action and prints the revision the
/// server applied it at; a rejection is printed on stderr with exit code 1.
struct Dispatch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Dispatch an action; print the revision it was applied at.",
        discussion: """
            The action is a JSON object, or the short form TYPE KEY=VALUE…, where each VALUE \
            is read as JSON when it parses as JSON (numbers, true, false, null, "quoted", [..], {..}) \
            and as a string otherwise:
              statesync dispatch '{"type":"addTodo","title":"Milk"}'
              statesync dispatch addTodo title=Milk
              statesync dispatch increment counter=hits by=-3
              statesync dispatch postMessage 'text=hello world'
            Prints the acknowledged revision (e.g. 7) and exits 0. A rejected action prints \
            "rejected (CODE): MESSAGE" on stderr and exits 1; the state is unchanged.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @OptionGroup var store: StoreSelection

    @Argument(help: ArgumentHelp("A JSON object, or TYPE followed by KEY=VALUE pairs.", valueName: "action"))
    var arguments: [String]

    func validate() throws {
        _ = try parsedAction()
    }

    func run() async throws {
        let action = try parsedAction()
        let store = self.store.name
        let rev = try await ClientSession.run(connection.configuration()) { client in
            try await client.store(store).dispatch(action)
        }
        printLine("\(rev)")
    }

    private func parsedAction() throws(ValidationError) -> JSONObject {
        do {
            return try ActionArguments(arguments).action
        } catch {
            throw ValidationError(error.description)
        }
    }
}
