import StateSyncCore

/// A tiny app action with a wire form, for the session-command tests:
/// `{"type":"increment","by":2}`.
enum CounterAction: WireAction, Hashable {
    case increment(by: Int64)

    init(wireValue object: JSONObject) throws(Rejection) {
        guard case .string("increment")? = object["type"] else {
            throw .invalidAction("unknown action type \(object["type"].map { "\($0)" } ?? "(none)")")
        }
        guard let by = object["by"]?.int64Value else { throw .invalidAction("increment needs an integer \"by\"") }
        self = .increment(by: by)
    }

    var wireValue: JSONObject {
        switch self {
        case .increment(let by): ["type": "increment", "by": .integer(by)]
        }
    }
}
