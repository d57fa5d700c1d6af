import Foundation
import StateSyncProtocol

/// How many bytes a store holds, as `GET /api/stores` reports them:
///
/// - a data directory: the sizes of the regular files in the store's own
///   directory (for `main` the server's data directory, not the `stores/`
///   under it), open or not: what deleting it would free;
/// - memory: the estimated size of its state encoded as JSON (the figure
///   `--max-state-bytes` is checked against); its journal's entries are not
///   counted;
/// - a journal of the application's (`--postgres`): unknown (`nil`).
struct StoreFootprint: Sendable {
    private enum Base: Sendable {
        case directory(String)
        case memory
        case unknown
    }

    private let base: Base

    /// The footprint of the stores of `storage`.
    init(storage: StateSyncStorage) {
        if let directory = storage.directoryPath {
            base = .directory(directory)
        } else if storage.journalOpener != nil {
            base = .unknown
        } else {
            base = .memory
        }
    }

    /// The bytes `store` holds, `nil` when this storage cannot say (or a
    /// store in memory is not open). `stateBytes` is its engine's estimate
    /// when it is open.
    func bytes(of store: StoreName, stateBytes: Int?) -> Int? {
        switch base {
        case .directory(let directory): Self.fileBytes(in: StoreStorage.path(of: store, in: directory))
        case .memory: stateBytes
        case .unknown: nil
        }
    }

    /// The sum of the sizes of the regular files directly in `path` (0 when it is gone).
    private static func fileBytes(in path: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.reduce(0) { total, name in
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: "\(path)/\(name)"),
                  attributes[.type] as? FileAttributeType == .typeRegular,
                  let size = attributes[.size] as? NSNumber
            else { return total }
            return total + size.intValue
        }
    }
}
