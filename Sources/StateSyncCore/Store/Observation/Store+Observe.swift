extension Store {
    /// Calls `receive` with the value at `path` now and after every action that
    /// changes it, on the dispatching thread in revision order. `path` must not
    /// reach into the store: it is read while the store works.
    ///
    /// ```swift
    /// let token = store.subscribe(\.counters.hits) { hits in label.text = "\(hits)" }
    /// ```
    @inlinable
    public func subscribe<Value: Equatable & Sendable>(
        _ path: any KeyPath<State, Value> & Sendable, _ receive: @escaping @Sendable (Value) -> Void
    ) -> ObservationToken {
        subscribe(KeyPathReader(path: path), receive: receive, end: nil)
    }

    /// The value at `path` now and after every action that changes it, as an
    /// `AsyncSequence`. Each key path costs a read and `==` per action: for
    /// many elements of one collection use ``observe(_:id:)``.
    ///
    /// ```swift
    /// for await todos in store.observe(\.todos) { render(todos) }
    /// ```
    @inlinable
    public func observe<Value: Equatable & Sendable>(_ path: any KeyPath<State, Value> & Sendable) -> StateObservation<Value> {
        let reader = KeyPathReader(path: path)
        return StateObservation { receive, end in subscribe(reader, receive: receive, end: end) }
    }

    /// Calls `receive` with the element `id` of the keyed collection at `path`
    /// (`nil` while absent) now and whenever it changes. See ``observe(_:id:)``.
    @inlinable
    public func subscribe<Elements: KeyedCollection>(
        _ path: any KeyPath<State, Elements> & Sendable, id: Elements.Key,
        _ receive: @escaping @Sendable (Elements.Value?) -> Void
    ) -> ObservationToken where Elements: SendableMetatype, Elements.Key: Sendable, Elements.Value: Equatable & Sendable {
        subscribe(ElementReader(path: path), id: id, receive: receive, end: nil)
    }

    /// The element `id` of the keyed collection at `path` (`nil` while absent),
    /// now and whenever it changes: **the way to observe many elements**. Under
    /// a ``ForEachElement`` reducer only the changed element's observers run.
    ///
    /// ```swift
    /// for await todo in store.observe(\.todos, id: "t7") { row.show(todo) }
    /// ```
    @inlinable
    public func observe<Elements: KeyedCollection>(
        _ path: any KeyPath<State, Elements> & Sendable, id: Elements.Key
    ) -> StateObservation<Elements.Value?> where Elements: SendableMetatype, Elements.Key: Sendable, Elements.Value: Equatable & Sendable {
        let reader = ElementReader(path: path)
        return StateObservation { receive, end in subscribe(reader, id: id, receive: receive, end: end) }
    }

    /// Registers a key-path observer, in order with the dispatches.
    @usableFromInline
    func subscribe<Value: Equatable & Sendable>(
        _ reader: KeyPathReader<State, Value>,
        receive: @escaping @Sendable (Value) -> Void, end: (@Sendable ((any Error)?) -> Void)?
    ) -> ObservationToken {
        register(receive: receive, end: end) { context, state, subscriber in
            context.observers.add(subscriber, reader: reader, state: state)
        } remove: { context, id in
            context.observers.removeObserver(id: id, path: reader.path)
        }
    }

    /// Registers an element observer, in order with the dispatches.
    @usableFromInline
    func subscribe<Elements: KeyedCollection>(
        _ reader: ElementReader<State, Elements>, id key: Elements.Key,
        receive: @escaping @Sendable (Elements.Value?) -> Void, end: (@Sendable ((any Error)?) -> Void)?
    ) -> ObservationToken where Elements: SendableMetatype, Elements.Key: Sendable, Elements.Value: Equatable & Sendable {
        register(receive: receive, end: end) { context, state, subscriber in
            context.observers.add(subscriber, reader: reader, key: key, state: state)
        } remove: { context, id in
            context.observers.removeObserver(id: id, collection: reader.path, key: AnyHashable(key))
        }
    }

    /// Creates a subscriber and runs `add` for it on the drain role (it
    /// returns the first value, or throws to end the subscriber at once);
    /// the token runs `remove` the same way.
    func register<Value: Sendable>(
        receive: @escaping @Sendable (Value) -> Void,
        end: (@Sendable ((any Error)?) -> Void)?,
        add: @escaping @Sendable (DrainContext<State>, State, Subscriber<Value>) throws -> Value,
        remove: @escaping @Sendable (DrainContext<State>, UInt64) -> Void
    ) -> ObservationToken {
        let subscriber = Subscriber(id: makeObserverID(), receive: receive, end: end)
        perform { context in
            guard !context.observersEnded else {
                subscriber.finish(error: nil)
                return
            }
            do {
                subscriber.deliver(try add(context, self.state, subscriber))
            } catch {
                remove(context, subscriber.id)
                subscriber.finish(error: error)
            }
        }
        return ObservationToken { [weak self] in
            subscriber.cancel()
            self?.perform { context in remove(context, subscriber.id) }
        }
    }
}
