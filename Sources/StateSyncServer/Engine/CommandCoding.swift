import StateSyncCore
import StateSyncProtocol

/// The journal form of ``SessionCommand`` (as documented there):
/// `{"command":"dispatch","session":{"id":…,"name":…},"action":{…}}`,
/// `{"command":"sessionJoined","session":{…}}`, `{"command":"sessionLeft","session":{…}}`,
/// `{"command":"serverStarted"}`. The action is journaled as the object the
/// client sent, and read back with ``WireAction/init(wireValue:)``, so an
/// app's `Action` needs no `Codable` conformance.
enum CommandCoding {
    /// The journal bytes of a client action `action` sent by `session`.
    static func dispatch(_ action: JSONObject, from session: SessionInfo) -> [UInt8] {
        serialize(["command": "dispatch", "session": sessionValue(session), "action": .object(action)])
    }

    /// The journal bytes of `sessionJoined` (`joined`) or `sessionLeft` for `session`.
    static func sessionEvent(joined: Bool, _ session: SessionInfo) -> [UInt8] {
        serialize(["command": .string(joined ? "sessionJoined" : "sessionLeft"), "session": sessionValue(session)])
    }

    /// The journal bytes of `serverStarted`.
    static let serverStarted: [UInt8] = serialize(["command": "serverStarted"])

    /// Reads a journaled command.
    ///
    /// - Throws: a description of what is wrong, for ``SyncEngineError``.
    static func decode<Action: WireAction>(_ bytes: [UInt8], as: Action.Type) throws -> SessionCommand<Action> {
        let value = try JSONParser().parse(bytes)
        guard case .object(let object) = value, case .string(let command)? = object["command"] else {
            throw CommandDecodingError(reason: "no \"command\" string in \(JSONSerializer().string(for: value).prefix(200))")
        }
        switch command {
        case "serverStarted":
            return .serverStarted
        case "sessionJoined":
            return .sessionJoined(try session(in: object))
        case "sessionLeft":
            return .sessionLeft(try session(in: object))
        case "dispatch":
            guard case .object(let action)? = object["action"] else {
                throw CommandDecodingError(reason: "a dispatch without an \"action\" object")
            }
            return .dispatch(try Action(wireValue: action), from: try session(in: object))
        default:
            throw CommandDecodingError(reason: "unknown command \"\(command)\"")
        }
    }

    private static func sessionValue(_ session: SessionInfo) -> JSONValue {
        ["id": .string(session.id), "name": .string(session.name)]
    }

    private static func session(in object: JSONObject) throws -> SessionInfo {
        guard case .object(let session)? = object["session"],
              case .string(let id)? = session["id"], case .string(let name)? = session["name"]
        else { throw CommandDecodingError(reason: "no \"session\" with string \"id\" and \"name\"") }
        return SessionInfo(id: id, name: name)
    }

    private static func serialize(_ value: JSONValue) -> [UInt8] {
        JSONSerializer().serialize(value)
    }
}

/// A journaled command that does not have the journal form.
struct CommandDecodingError: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
