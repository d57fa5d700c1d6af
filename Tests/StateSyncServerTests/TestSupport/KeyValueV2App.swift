import StateSyncCore

/// The key-value app at schema version 2: version 1 wrote `set` where it
/// has `put`, and its state had no `version` key.
enum KeyValueV2App: StateSyncApp {
    typealias Action = KeyValueApp.Action
    static var initialState: JSONValue { KeyValueApp.initialState }
    static var reducer: any Reducer<JSONValue, SessionCommand<Action>> { KeyValueApp.reducer }
    static var schemaVersion: Int { 2 }
    static var migrations: SchemaMigrations {
        [SchemaMigration(from: 1) { state in
            var object = state.objectValue ?? [:]
            object["version"] = 2
            return .object(object)
        } action: { action in
            action["type"] == "set" ? action.replacingType(with: "put") : action
        }]
    }
}
