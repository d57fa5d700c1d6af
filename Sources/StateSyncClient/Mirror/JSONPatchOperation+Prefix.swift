import StateSyncCore

extension JSONPatchOperation {
    /// This operation, written relative to the value at `prefix`, with its
    /// paths made absolute.
    func under(_ prefix: JSONPointer) -> JSONPatchOperation {
        switch self {
        case .add(let path, let value): .add(path: prefix.appending(path), value: value)
        case .remove(let path): .remove(path: prefix.appending(path))
        case .replace(let path, let value): .replace(path: prefix.appending(path), value: value)
        case .move(let from, let path): .move(from: prefix.appending(from), path: prefix.appending(path))
        case .copy(let from, let path): .copy(from: prefix.appending(from), path: prefix.appending(path))
        case .test(let path, let value): .test(path: prefix.appending(path), value: value)
        }
    }
}
