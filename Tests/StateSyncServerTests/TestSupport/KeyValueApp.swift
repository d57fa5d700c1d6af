import StateSyncCore
import StateSyncProtocol
import Synchronization
@testable import StateSyncServer

/// A second, tiny app served by the same engine: a JSON document of named
/// entries, whose state *is* a ``JSONValue`` (so the engine's mirror needs no
/// encoding). Actions: `{"type":"put","key":…,"value":…}`, `{"type":"delete","key":…}`.
///
/// Its effect: a `put` of key `ask` (or `ask-NAME`) makes the server answer
/// with a random number, put at `answer` (or `answer-NAME`) as a system
/// command (``effectRuns(of:)`` counts how often the effect ran for each
/// key, so a test can see that replay never runs it, or that it ran once).
enum KeyValueApp: StateSyncApp {
    enum Action: WireAction {
        case put(key: String, value: JSONValue)
        case delete(key: String)

        init(wireValue: JSONObject) throws(Rejection) {
            guard case .string(let type)? = wireValue["type"], case .string(let key)? = wireValue["key"], !key.isEmpty else {
                throw .invalidAction("a key-value action needs a string \"type\" and a non-empty string \"key\"")
            }
            switch type {
            case "put": self = .put(key: key, value: wireValue["value"] ?? .null)
            case "delete": self = .delete(key: key)
            default: throw .invalidAction("unknown action type \"\(type)\" (put or delete)")
            }
        }

        var wireValue: JSONObject {
            switch self {
            case let .put(key, value): JSONObject([("type", "put"), ("key", .string(key)), ("value", value)])
            case .delete(let key): JSONObject([("type", "delete"), ("key", .string(key))])
            }
        }
    }

    struct KeyValueReducer: Reducer {
        func reduce(into state: inout JSONValue, action: SessionCommand<Action>, meta: Meta) throws(Rejection) -> Footprint {
            guard let action = action.action else { return .nothing }
            guard case .object(var entries) = state else { throw .invalidAction("the state is not an object") }
            switch action {
            case let .put(key, value):
                entries[key] = value
            case .delete(let key):
                guard entries.removeValue(forKey: key) != nil else { throw .notFound("no entry \(key)") }
            }
            state = .object(entries)
            return .everything
        }
    }

    static var initialState: JSONValue { .object(JSONObject()) }
    static var reducer: any Reducer<JSONValue, SessionCommand<Action>> { KeyValueReducer() }

    /// How many times the effect of a `put` of each question key has run in this process.
    private static let runs = Mutex<[String: Int]>([:])

    /// How many times the effect of a `put` of `key` has run in this process.
    static func effectRuns(of key: String) -> Int {
        runs.withLock { $0[key] ?? 0 }
    }

    static var effects: Effects<JSONValue, SessionCommand<Action>>? {
        Effects { command, _, _ in
            guard case .dispatch(.put(let key, _), _) = command, key == "ask" || key.hasPrefix("ask-") else { return .none }
            let answerKey = "answer" + key.dropFirst("ask".count)
            return .run { send in
                runs.withLock { $0[key, default: 0] += 1 }
                await send(.system(.put(key: answerKey, value: .integer(Int64.random(in: 1...1_000_000)))))
            }
        }
    }
}
