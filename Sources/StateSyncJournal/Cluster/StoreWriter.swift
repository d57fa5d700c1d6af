/// Which node of a cluster writes a shared store (``SharedJournal/watchWriter(_:)``):
/// one per store, so nodes do not refuse each other's group commits. An optimization
/// only: the compare-and-set on the store's head still keeps history linear.
public enum StoreWriter: Sendable, Hashable {
    /// Nobody is known to write the store (no lease yet, or the storage is
    /// unreachable): a node writes for its own sessions.
    case unknown
    /// This node holds the store's lease: it writes the store.
    case this
    /// Node `node` holds the lease; `address` (`host:port`) is where other
    /// nodes reach it, `nil` when it advertised none.
    case other(node: String, address: String?)

    /// The writer in one word, as `/health` shows it: `this`, the other
    /// node's id, or `unknown`.
    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .this: "this"
        case .other(let node, _): node
        }
    }
}

extension StoreWriter: CustomStringConvertible {
    /// The writer for a log: ``name``, and where another node is reached.
    public var description: String {
        if case let .other(node, address?) = self { return "\(node) at \(address)" }
        return name
    }
}
