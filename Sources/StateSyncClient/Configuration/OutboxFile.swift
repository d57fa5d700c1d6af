import Foundation
import StateSyncCore
import StateSyncProtocol

/// The file of ``ClientOutbox/file(_:)``: `{"clientID":"c-…","dispatches":[{"id":"…","action":{…}},…]}` in
/// dispatch order per store; an entry adds `"store"` for a store other than `main` and `"schemaVersion"` when
/// the client declared one.
struct OutboxFile: Sendable {
    /// One unanswered dispatch.
    struct Entry: Sendable, Equatable {
        let id: String
        let action: JSONObject
        var store: StoreName = .main
        /// The app schema version the action was written for, when declared.
        var schemaVersion: Int?
    }

    /// What the file holds.
    struct Contents: Sendable, Equatable {
        let clientID: String
        let dispatches: [Entry]
    }

    let url: URL

    /// The file's contents, or `nil` when there is no file.
    func load() throws(StateSyncClientError) -> Contents? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let value: JSONValue
        do {
            value = try JSONParser().parse([UInt8](try Data(contentsOf: url)))
        } catch {
            throw .outboxFailed(path: url.path, reason: "\(error)")
        }
        guard case .object(let object) = value, case .string(let clientID)? = object["clientID"],
              case .array(let items)? = object["dispatches"]
        else { throw .outboxFailed(path: url.path, reason: "not an outbox: expected {\"clientID\":…,\"dispatches\":[…]}") }
        var dispatches: [Entry] = []
        for item in items {
            guard case .object(let entry) = item, case .string(let id)? = entry["id"], case .object(let action)? = entry["action"]
            else { throw .outboxFailed(path: url.path, reason: "a dispatch is not {\"id\":…,\"action\":{…}}") }
            var store = StoreName.main
            if let name = entry["store"] {
                guard case .string(let text) = name, let valid = try? StoreName(text)   // the reason is the rule, given below
                else { throw .outboxFailed(path: url.path, reason: "a dispatch's store is not a store name (\(StoreName.rule))") }
                store = valid
            }
            var schemaVersion: Int?
            if let version = entry["schemaVersion"] {
                guard case .integer(let number) = version, let valid = Int(exactly: number), ProtocolVersion.schemaVersions.contains(valid)
                else { throw .outboxFailed(path: url.path, reason: "a dispatch's schemaVersion is not \(ProtocolVersion.schemaVersionKind)") }
                schemaVersion = valid
            }
            dispatches.append(Entry(id: id, action: action, store: store, schemaVersion: schemaVersion))
        }
        return Contents(clientID: clientID, dispatches: dispatches)
    }

    /// Replaces the file with `contents` (written to a temporary file and renamed).
    func save(_ contents: Contents) throws(StateSyncClientError) {
        let items: [JSONValue] = contents.dispatches.map { entry in
            var item: JSONObject = ["id": .string(entry.id), "action": .object(entry.action)]
            if !entry.store.isMain { item["store"] = .string(entry.store.rawValue) }
            if let version = entry.schemaVersion { item["schemaVersion"] = .integer(Int64(version)) }
            return .object(item)
        }
        let value: JSONValue = .object(["clientID": .string(contents.clientID), "dispatches": .array(items)])
        var bytes: [UInt8] = []
        JSONSerializer().serialize(value, into: &bytes)
        do {
            try Data(bytes).write(to: url, options: .atomic)
        } catch {
            throw .outboxFailed(path: url.path, reason: "\(error)")
        }
    }
}
