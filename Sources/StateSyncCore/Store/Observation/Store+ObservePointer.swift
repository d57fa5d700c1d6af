extension Store where State: Encodable {
    /// Calls `receive` with the JSON value at `pointer` (`null` where nothing
    /// exists) now and after each change; `onFailure` on an encoding error. A
    /// typed state is encoded once per action, O(state size): prefer key paths.
    public func subscribe(
        _ pointer: JSONPointer,
        onFailure: @escaping @Sendable (any Error) -> Void = { _ in },
        _ receive: @escaping @Sendable (JSONValue) -> Void
    ) -> ObservationToken {
        subscribe(pointer, receive: receive) { error in
            if let error { onFailure(error) }
        }
    }

    /// The JSON value at `pointer` now and after every change, as an
    /// `AsyncSequence` (cost: see ``subscribe(_:onFailure:_:)``).
    public func observe(_ pointer: JSONPointer) -> PointerObservation {
        PointerObservation { receive, end in subscribe(pointer, receive: receive, end: end) }
    }

    /// The JSON value at the pointer written `pointer` (RFC 6901 text), e.g.
    /// `for try await title in try store.observe("/todos/0/title") { print(title) }`.
    public func observe(_ pointer: String) throws(JSONPointerError) -> PointerObservation {
        observe(try JSONPointer(parsing: pointer))
    }

    /// Registers a pointer observer, in order with the dispatches.
    private func subscribe(
        _ pointer: JSONPointer,
        receive: @escaping @Sendable (JSONValue) -> Void, end: @escaping @Sendable ((any Error)?) -> Void
    ) -> ObservationToken {
        register(receive: receive, end: end) { context, state, subscriber in
            try context.observers.add(subscriber, pointer: pointer, state: state, encode: Self.encodeState)
        } remove: { context, id in
            context.observers.removeObserver(id: id, pointer: pointer)
        }
    }

    /// The state as JSON: itself for a `JSONValue` state, else via ``JSONValueEncoder``.
    private static func encodeState(_ state: State) throws -> JSONValue {
        if let document = state as? JSONValue { return document }
        return try JSONValueEncoder().encode(state)
    }
}
