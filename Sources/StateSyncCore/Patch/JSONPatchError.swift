/// Why a JSON Patch could not be read or applied; applying names the failing
/// operation: `operation 2 (replace /a/b): path does not exist: /a`.
public struct JSONPatchError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Base: Hashable {
        case malformed(index: Int?, context: String?, message: String)
        case failed(index: Int, op: String, path: String, reason: String)
    }

    private let base: Base

    private init(_ base: Base) {
        self.base = base
    }

    static func malformed(_ message: String, context: String? = nil) -> JSONPatchError {
        JSONPatchError(.malformed(index: nil, context: context, message: message))
    }

    /// This error, when it says an operation was malformed, with the
    /// operation's index in its patch added.
    func inOperation(_ index: Int) -> JSONPatchError {
        guard case let .malformed(_, context, message) = base else { return self }
        return JSONPatchError(.malformed(index: index, context: context, message: message))
    }

    static func failed(index: Int, operation: JSONPatchOperation, reason: String) -> JSONPatchError {
        JSONPatchError(.failed(index: index, op: operation.name, path: operation.path.description, reason: reason))
    }

    /// The index of the operation that failed to apply, or `nil` when the
    /// patch document itself was malformed.
    public var operationIndex: Int? {
        if case .failed(let index, _, _, _) = base { return index }
        return nil
    }

    /// A message naming the operation and what was wrong.
    public var description: String {
        switch base {
        case let .malformed(index, context, message):
            "malformed JSON patch: "
                + [index.map { "operation \($0)" }, context.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
                + (index == nil && context == nil ? "" : ": ") + message
        case let .failed(index, op, path, reason):
            "operation \(index) (\(op) \(path.isEmpty ? "\"\"" : path)): \(reason)"
        }
    }
}
