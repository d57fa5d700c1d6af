import ArgumentParser
import StateSyncProtocol

/// `--store NAME`, shared by the client commands: which store of the server they use.
/// Include it with `@OptionGroup var store: StoreSelection`.
struct StoreSelection: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The store to use: 1 to 64 of a-z 0-9 . _ -, starting with a-z or 0-9. A store that does not exist yet is created on first use when the role may create it.",
        valueName: "name"))
    var store = StoreName.main.rawValue

    /// The store named by `--store` (validated by ``validate()``).
    var name: StoreName {
        (try? StoreName(store)) ?? .main   // validate() has refused any other name before run()
    }

    func validate() throws {
        guard StoreName.isValid(store) else {
            throw ValidationError("--store \"\(store)\" is not a store name: \(StoreName.rule)")
        }
    }
}
