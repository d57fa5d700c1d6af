import Foundation
import StateSyncClient
import StateSyncProtocol
import StateSyncCore

/// How `statesync stores` prints the stores: a table with aligned
/// columns, or JSON objects as the HTTP API lists them.
enum StoreTable {
    /// The table: a header line (`NAME OPEN REV SESSIONS BYTES`) and one line per store,
    /// each ending in a newline.
    static func text(_ stores: [StoreInfo]) -> String {
        let rows = [["NAME", "OPEN", "REV", "SESSIONS", "BYTES"]] + stores.map { store in
            [store.name.rawValue, store.open ? "yes" : "no", store.revision.map(String.init) ?? "-", String(store.sessions),
             store.bytes.map(byteCount) ?? "-"]
        }
        let widths = (0..<5).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            zip(row, widths).enumerated().map { index, cell in
                index == row.count - 1 ? cell.0 : cell.0.padding(toLength: cell.1 + 2, withPad: " ", startingAt: 0)
            }.joined() + "\n"
        }.joined()
    }

    /// `store` as the HTTP API lists it: `rev` only when known, `bytes` `null` when unknown.
    static func json(_ store: StoreInfo) -> JSONValue {
        var object: JSONObject = [
            "name": .string(store.name.rawValue), "open": .bool(store.open), "sessions": .integer(Int64(store.sessions)),
            "bytes": store.bytes.map { .integer(Int64($0)) } ?? .null,
        ]
        if let revision = store.revision { object["rev"] = .integer(Int64(clamping: revision)) }
        return .object(object)
    }

    /// `bytes` for people: `512 B`, `92.0 KiB`, `1.8 MiB`, `2.1 GiB`.
    static func byteCount(_ bytes: Int) -> String {
        guard bytes >= 1024 else { return "\(bytes) B" }
        let units = ["KiB", "MiB", "GiB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return "\((value * 10).rounded() / 10) \(units[unit])"
    }
}
