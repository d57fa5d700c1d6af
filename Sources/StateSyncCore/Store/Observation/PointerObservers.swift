/// The JSON Pointer observers of a store, as a tree of pointer tokens: the
/// state is encoded once per action (never for a `JSONValue` state), and the
/// walk skips each node equal to its cached value, subtree and all.
final class PointerObservers<State> {
    private let encode: (State) throws -> JSONValue
    private let root = PointerNode()

    /// Observers of a state that `encode` turns into JSON.
    init(encode: @escaping (State) throws -> JSONValue) {
        self.encode = encode
    }

    /// Adds an observer of `pointer`; returns the value to deliver first
    /// (`null` where nothing exists).
    func add(_ subscriber: Subscriber<JSONValue>, pointer: JSONPointer, state: State) throws -> JSONValue {
        let document = try encode(state)
        var node = root
        var value: JSONValue? = document
        node.cache(value)
        for token in pointer.tokens {
            value = value?.child(token)
            node = node.child(token)
            node.cache(value)
        }
        return node.slot(initial: value ?? .null).add(subscriber)
    }

    /// Removes the observer `id` of `pointer`, pruning nodes nobody needs.
    func remove(id: UInt64, pointer: JSONPointer) {
        root.remove(id: id, tokens: pointer.tokens[...])
    }

    /// Whether no observer is left.
    var isEmpty: Bool { root.isUnused }

    /// Encodes `state` once and queues deliveries for every changed pointer.
    /// When the state cannot be encoded, every pointer observer is ended with the error.
    func check(_ state: State, into deliveries: inout [Delivery]) {
        let document: JSONValue
        do {
            document = try encode(state)
        } catch {
            root.finishAll(error: error, into: &deliveries)
            return
        }
        root.check(document, into: &deliveries)
    }

    /// Ends every observer.
    func finishAll(into deliveries: inout [Delivery]) {
        root.finishAll(error: nil, into: &deliveries)
    }
}

/// One token of the pointer tree: the cached value there, the observers of
/// exactly this pointer, and the longer pointers below it.
final class PointerNode {
    private var value: JSONValue?
    private var isCached = false
    private var observers: ObservedSlot<JSONValue>?
    private var children: [String: PointerNode] = [:]

    /// Whether neither this node nor any below it has observers.
    var isUnused: Bool { (observers?.isEmpty ?? true) && children.isEmpty }

    /// Records the current value (when not cached yet).
    func cache(_ value: JSONValue?) {
        guard !isCached else { return }
        self.value = value
        isCached = true
    }

    /// The child node for `token`, created when missing.
    func child(_ token: String) -> PointerNode {
        if let existing = children[token] { return existing }
        let node = PointerNode()
        children[token] = node
        return node
    }

    /// The observers of this exact pointer, created with `initial` when missing.
    func slot(initial: JSONValue) -> ObservedSlot<JSONValue> {
        if let observers { return observers }
        let slot = ObservedSlot(value: initial)
        observers = slot
        return slot
    }

    /// Compares `newValue` with the cache; on a change, delivers to this
    /// node's observers and descends into the children.
    func check(_ newValue: JSONValue?, into deliveries: inout [Delivery]) {
        guard newValue != value else { return }
        value = newValue
        observers?.update(newValue ?? .null, into: &deliveries)
        for (token, node) in children {
            node.check(newValue?.child(token), into: &deliveries)
        }
    }

    /// Removes observer `id` at the end of `tokens`, dropping unused children.
    func remove(id: UInt64, tokens: ArraySlice<String>) {
        guard let token = tokens.first else {
            observers?.remove(id: id)
            if observers?.isEmpty == true { observers = nil }
            return
        }
        guard let node = children[token] else { return }
        node.remove(id: id, tokens: tokens.dropFirst())
        if node.isUnused { children[token] = nil }
    }

    /// Ends every observer at or below this node.
    func finishAll(error: (any Error)?, into deliveries: inout [Delivery]) {
        observers?.finishAll(error: error, into: &deliveries)
        observers = nil
        for node in children.values { node.finishAll(error: error, into: &deliveries) }
        children = [:]
    }
}
