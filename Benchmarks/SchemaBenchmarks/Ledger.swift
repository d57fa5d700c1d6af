import StateSyncCore

/// The benchmark's app at version 1: a list of items, each `{"id","text"}`,
/// grown by `{"type":"append","text":…}`.
enum LedgerV1: StateSyncApp {
    enum Action: WireAction {
        case append(text: String)

        init(wireValue: JSONObject) throws(Rejection) {
            guard wireValue["type"] == "append", case .string(let text)? = wireValue["text"] else {
                throw .invalidAction("expected {\"type\":\"append\",\"text\":…}")
            }
            self = .append(text: text)
        }

        var wireValue: JSONObject { ["type": "append", "text": .string(text)] }

        var text: String {
            switch self { case .append(let text): text }
        }
    }

    static var initialState: JSONValue { ["items": []] }
    static var reducer: any Reducer<JSONValue, SessionCommand<Action>> {
        LedgerReducer<Action> { action, meta in ["id": .string("i\(meta.revision)"), "text": .string(action.text)] }
    }
}

/// Version 2: every item has a `priority` (`normal` for the old ones), and
/// the action is `{"type":"add","text":…,"priority":…}`; version 1's
/// `append` is upcast to an `add` of priority `normal`.
enum LedgerV2: StateSyncApp {
    enum Action: WireAction {
        case add(text: String, priority: String)

        init(wireValue: JSONObject) throws(Rejection) {
            guard wireValue["type"] == "add", case .string(let text)? = wireValue["text"],
                  case .string(let priority)? = wireValue["priority"]
            else { throw .invalidAction("expected {\"type\":\"add\",\"text\":…,\"priority\":…}") }
            self = .add(text: text, priority: priority)
        }

        var wireValue: JSONObject {
            switch self { case let .add(text, priority): ["type": "add", "text": .string(text), "priority": .string(priority)] }
        }
    }

    static var initialState: JSONValue { ["items": []] }
    static var schemaVersion: Int { 2 }
    static var migrations: SchemaMigrations {
        [SchemaMigration(from: 1) { state in
            guard case .object(var root) = state, case .array(let items)? = root["items"] else { return state }
            root["items"] = .array(items.map { item in
                guard case .object(var fields) = item else { return item }
                fields["priority"] = "normal"
                return .object(fields)
            })
            return .object(root)
        } action: { action in
            guard case .object(var fields) = action, fields["type"] == "append" else { return action }
            fields["type"] = "add"
            fields["priority"] = "normal"
            return .object(fields)
        }]
    }
    static var reducer: any Reducer<JSONValue, SessionCommand<Action>> {
        LedgerReducer<Action> { action, meta in
            switch action {
            case let .add(text, priority): ["id": .string("i\(meta.revision)"), "text": .string(text), "priority": .string(priority)]
            }
        }
    }
}

/// Appends the item `item` makes of each dispatched action to `items`.
struct LedgerReducer<Action: WireAction>: Reducer {
    let item: @Sendable (Action, Meta) -> JSONValue

    func reduce(into state: inout JSONValue, action: SessionCommand<Action>, meta: Meta) throws(Rejection) -> Footprint {
        guard let action = action.action else { return .nothing }
        guard case .object(var root) = state else { throw .invalidAction("the state is not a ledger") }
        state = .null   // `root` and then `items` become the only owners: appending copies nothing
        guard case .array(var items)? = root.removeValue(forKey: "items") else { throw .invalidAction("the state has no items") }
        items.append(item(action, meta))
        root["items"] = .array(items)
        state = .object(root)
        return .everything
    }
}
