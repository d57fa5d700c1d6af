import Foundation

extension Recorder {
    /// The kept entries as a readable log, one block per action: the revision,
    /// the action as JSON, the client and time, then one line per patch
    /// operation (as in the ``Recorder`` example).
    public func log() -> String {
        entries.map(describe).joined(separator: "\n")
    }

    /// One entry's block.
    private func describe(_ entry: Entry) -> String {
        let action: String
        do {
            action = try JSONValueEncoder().encode(entry.action).description
        } catch {
            action = "\(entry.action) (not encodable as JSON: \(error))"
        }
        let time = entry.meta.time.formatted(.iso8601)
        var lines = ["rev \(entry.meta.revision) \(action) by \(entry.meta.clientID ?? "-") at \(time)"]
        switch entry.patch {
        case .success(let patch) where patch.isEmpty:
            lines.append("  (no change)")
        case .success(let patch):
            lines += patch.operations.map { "  " + $0.logLine }
        case .failure(let error):
            lines.append("  (\(error))")
        }
        return lines.joined(separator: "\n")
    }
}

extension JSONPatchOperation {
    /// The operation on one line: `op path [value]`, e.g. `replace /counters/hits 4`.
    var logLine: String {
        switch self {
        case let .add(path, value), let .replace(path, value), let .test(path, value):
            "\(name) \(path) \(value)"
        case let .remove(path):
            "remove \(path)"
        case let .move(from, path), let .copy(from, path):
            "\(name) \(from) -> \(path)"
        }
    }
}
