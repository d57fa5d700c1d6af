/// The journal form of ``SessionCommand``: one compact JSON object per command,
/// keys sorted.
///
/// ```
/// {"action":{…},"command":"dispatch","session":{"id":"s-91","name":"alice"}}
/// {"action":{…},"command":"system"}
/// {"command":"sessionJoined","session":{"id":"s-91","name":"alice"}}
/// {"command":"sessionLeft","session":{"id":"s-91","name":"alice"}}
/// {"command":"serverStarted"}
/// ```
///
/// The action is its canonical ``WireAction/wireValue``, read back with
/// ``WireAction/init(wireValue:)``, so `Action` needs no `Codable`.
package enum SessionCommandCoding {
    /// The journal bytes of `command`.
    package static func encode<Action: WireAction>(_ command: SessionCommand<Action>) -> [UInt8] {
        // One literal per case: the object is sorted once.
        let object: JSONObject
        switch command {
        case let .dispatch(action, session):
            return encode(dispatch: action, from: session)
        case .system(let action):
            object = ["command": "system", "action": .object(action.wireValue)]
        case .sessionJoined(let session):
            object = ["command": "sessionJoined", "session": value(of: session)]
        case .sessionLeft(let session):
            object = ["command": "sessionLeft", "session": value(of: session)]
        case .serverStarted:
            object = ["command": "serverStarted"]
        }
        return JSONSerializer().serialize(.object(object))
    }

    /// A client's `dispatch`, the most common command: the action's
    /// ``WireAction/wireValue`` between the envelope's fixed bytes (keys
    /// `action`, `command`, `session`), with no envelope object built.
    private static func encode<Action: WireAction>(dispatch action: Action, from session: SessionInfo) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(96)
        JSONTextWriter.append(#"{"action":"#, to: &bytes)
        JSONSerializer().serialize(.object(action.wireValue), into: &bytes)
        JSONTextWriter.append(#","command":"dispatch","session":{"id":"#, to: &bytes)
        JSONTextWriter.writeString(session.id, into: &bytes)
        JSONTextWriter.append(#","name":"#, to: &bytes)
        JSONTextWriter.writeString(session.name, into: &bytes)
        JSONTextWriter.append("}}", to: &bytes)
        return bytes
    }

    /// `bytes`, a journaled command, with its action replaced by
    /// `upcast(action)`: how a newer schema reads an older one's journal.
    /// - Throws: ``SessionCommandDecodingError/notJSON(_:)`` for bytes that are
    ///   not JSON; what `upcast` throws.
    package static func upcastingAction(in bytes: [UInt8], _ upcast: (JSONValue) throws -> JSONValue) throws -> [UInt8] {
        let value: JSONValue
        do {
            value = try JSONParser().parse(bytes)
        } catch {
            throw SessionCommandDecodingError.notJSON(error)
        }
        guard case .object(var object) = value, let action = object["action"] else { return bytes }
        object["action"] = try upcast(action)
        return JSONSerializer().serialize(.object(object))
    }

    /// Reads a journaled command.
    /// - Throws: ``SessionCommandDecodingError`` for bytes not in the journal
    ///   form, or an action the app does not read.
    package static func decode<Action: WireAction>(
        _ bytes: [UInt8], as: Action.Type
    ) throws(SessionCommandDecodingError) -> SessionCommand<Action> {
        let value: JSONValue
        do {
            value = try JSONParser().parse(bytes)
        } catch {
            throw .notJSON(error)
        }
        guard case .object(let object) = value, case .string(let command)? = object["command"] else {
            throw .noCommand(in: value)
        }
        switch command {
        case "dispatch":
            return .dispatch(try action(in: object, of: command), from: try session(in: object, of: command))
        case "system":
            return .system(try action(in: object, of: command))
        case "sessionJoined":
            return .sessionJoined(try session(in: object, of: command))
        case "sessionLeft":
            return .sessionLeft(try session(in: object, of: command))
        case "serverStarted":
            return .serverStarted
        default:
            throw .unknownCommand(command)
        }
    }

    private static func value(of session: SessionInfo) -> JSONValue {
        ["id": .string(session.id), "name": .string(session.name)]
    }

    private static func action<Action: WireAction>(
        in object: JSONObject, of command: String
    ) throws(SessionCommandDecodingError) -> Action {
        guard case .object(let action)? = object["action"] else { throw .noAction(command) }
        do {
            return try Action(wireValue: action)
        } catch {
            throw .invalidAction(command, error)
        }
    }

    private static func session(in object: JSONObject, of command: String) throws(SessionCommandDecodingError) -> SessionInfo {
        guard case .object(let session)? = object["session"],
              case .string(let id)? = session["id"], case .string(let name)? = session["name"]
        else { throw .noSession(command) }
        return SessionInfo(id: id, name: name)
    }
}
