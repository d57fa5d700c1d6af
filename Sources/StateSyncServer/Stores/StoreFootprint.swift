import Foundation
import StateSyncProtocol
import StateSyncSQLite

/// How many bytes a store holds, for `GET /api/stores`: its files or rows in a
/// data directory, its state's estimated JSON size in memory or a
/// ``StoreJournals``, `nil` for the application's one journal.
struct StoreFootprint: Sendable {
    /// Where the bytes come from.
    enum Base: Sendable {
        /// The data directory and its stores' file.
        case directory(String, SQLiteStores)
        /// The engine's estimate of the state.
        case memory
        /// Nothing to measure.
        case unknown
    }

    private let base: Base

    /// The footprint measured from `base`.
    init(_ base: Base) {
        self.base = base
    }

    /// The bytes each of `stores` holds, in order, `nil` where this storage
    /// cannot say. The stores' file is read once for them all.
    func bytes(of stores: [(name: StoreName, stateBytes: Int?)]) async -> [Int?] {
        switch base {
        case .directory(let directory, let file):
            let rows = await file.storedBytes(of: stores.filter { !$0.name.isMain }.map(\.name.rawValue))
            return stores.map { store in
                store.name.isMain ? Self.fileBytes(in: directory, except: file.fileNames) : rows[store.name.rawValue]
            }
        case .memory: return stores.map(\.stateBytes)
        case .unknown: return stores.map { _ in nil }
        }
    }

    /// The sum of the sizes of the regular files directly in `path` but
    /// those named in `except` (0 when it is gone).
    private static func fileBytes(in path: String, except: Set<String>) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.reduce(0) { total, name in
            guard !except.contains(name),
                  let attributes = try? FileManager.default.attributesOfItem(atPath: "\(path)/\(name)"),
                  attributes[.type] as? FileAttributeType == .typeRegular,
                  let size = attributes[.size] as? NSNumber
            else { return total }
            return total + size.intValue
        }
    }
}
