import StateSyncCore
import StateSyncProtocol

/// One store as `GET /api/stores` lists it.
struct StoreSummary: Sendable, Equatable {
    let name: StoreName
    /// Whether it is open (resident) now.
    let open: Bool
    /// Its revision when it is open.
    let revision: UInt64?
    /// Sessions in it now (WebSocket sessions and HTTP requests).
    let sessions: Int
    /// The bytes it holds (``StoreFootprint``), `nil` when unknown.
    let bytes: Int?

    /// As the listings answer it: `{"name","open","rev","sessions","bytes"}`,
    /// `rev` only when open, `bytes` `null` when unknown.
    var json: JSONValue {
        var object: JSONObject = [
            "name": .string(name.rawValue), "open": .bool(open), "sessions": .integer(Int64(sessions)),
            "bytes": bytes.map { .integer(Int64($0)) } ?? .null,
        ]
        if let revision { object["rev"] = .integer(Int64(clamping: revision)) }
        return .object(object)
    }
}

/// Why a store was not deleted.
enum StoreDeletionError: Error, Equatable, CustomStringConvertible {
    case mainStays
    case notFound(StoreName)
    case inUse(StoreName, sessions: Int)
    case storage(StoreName, String)

    var description: String {
        switch self {
        case .mainStays: "the store main cannot be deleted"
        case .notFound(let store): "no store \"\(store)\""
        case let .inUse(store, sessions):
            sessions > 0
                ? "store \"\(store)\" has \(sessions) session(s) in it; it can be deleted once they left"
                : "store \"\(store)\" is opening or closing; try again"
        case let .storage(store, message): "store \"\(store)\" could not be removed: \(message)"
        }
    }
}
