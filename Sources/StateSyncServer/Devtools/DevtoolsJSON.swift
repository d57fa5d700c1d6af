import StateSyncJournal
import Foundation
import StateSyncCore
import StateSyncProtocol

/// The JSON bodies of the devtools endpoints (docs/PROTOCOL.md, "Devtools").
enum DevtoolsJSON {
    /// `{"rev":…,"time":…,"clientId":…,"actionId":…,"command":…,"session":…,"action":…,"patch":[…]}`
    /// for one journal entry; `command` is `dispatch`, `system`,
    /// `sessionJoined`, `sessionLeft` or `serverStarted` (the journal's command envelope).
    static func step<App>(_ step: TimeTravel<App>.Step) -> JSONValue {
        let entry = step.entry
        var object: JSONObject = [
            "rev": .integer(Int64(clamping: entry.revision)),
            "time": .string(timestamp(entry.meta.time)),
            "clientId": entry.meta.clientID.map(JSONValue.string) ?? .null,
            "actionId": entry.actionID.map(JSONValue.string) ?? .null,
            "patch": step.patch?.jsonValue ?? .null,
        ]
        do {
            let command = try JSONParser().parse(entry.action)
            object["command"] = command["command"] ?? .null
            object["session"] = command["session"] ?? .null
            object["action"] = command["action"] ?? .null
        } catch {
            object["command"] = .string("unreadable: \(error)")
        }
        return .object(object)
    }

    /// One rejection: `{"seq":…,"rev":…,"time":…,"session":…,"clientId":…,"actionId":…,"action":…,"code":…,"message":…}`.
    static func rejection(_ rejection: RejectedAction) -> JSONValue {
        [
            "seq": .integer(Int64(clamping: rejection.sequence)),
            "rev": .integer(Int64(clamping: rejection.revision)),
            "time": .string(timestamp(rejection.time)),
            "session": .string(rejection.sessionID),
            "clientId": rejection.clientID.map(JSONValue.string) ?? .null,
            "actionId": .string(rejection.actionID),
            "action": rejection.action,
            "code": .string(rejection.code),
            "message": .string(rejection.message),
        ]
    }

    /// One session: `{"id","name","clientId","role","subscriptions":[{"id","path"}],"deferredAnswers","slow"}`.
    static func session(_ session: SessionSummary) -> JSONValue {
        [
            "id": .string(session.id),
            "name": .string(session.name),
            "clientId": session.clientID.map(JSONValue.string) ?? .null,
            "role": .string(session.role.rawValue),
            "subscriptions": .array(session.subscriptions.map { ["id": .string($0.id), "path": .string($0.path)] }),
            "deferredAnswers": .integer(Int64(session.deferredAnswers)),
            "slow": .bool(session.isSlow),
        ]
    }

    /// RFC 3339 UTC, always with milliseconds (so that the action log's
    /// times line up), made once for every entry of a journal page.
    private static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// `date` as RFC 3339 UTC with milliseconds.
    static func timestamp(_ date: Date) -> String {
        date.formatted(timestampStyle)
    }
}
