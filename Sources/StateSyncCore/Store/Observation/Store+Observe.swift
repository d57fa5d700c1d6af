extension Store {
    /// Calls `receive` with the value at `path` now and after every action that changes it.
    ///
    /// Observers of the same key path share one read and one comparison per
    /// action. The first call happens before `subscribe` returns when the store
    /// is idle, otherwise right after the dispatch in progress; all calls run
    /// on the dispatching thread, in revision order. `path` must not reach into
    /// the store itself (it is read while the store works).
    ///
    /// ```swift
    /// let token = store.subscribe(\.counters.hits) { hits in label.text = "\(hits)" }
    /// ```
    ///
    /// - Returns: a token; the subscription lasts until it is cancelled or released.
    public func subscribe<Value: Equatable & Sendable>(
        _ path: any KeyPath<State, Value> & Sendable, _ receive: @escaping @Sendable (Value) -> Void
    ) -> ObservationToken {
        subscribe(path, receive: receive, end: nil)
    }

    /// The value at `path` now and after every action that changes it, as an `AsyncSequence`.
    ///
    /// ```swift
    /// for await todos in store.observe(\.todos) { render(todos) }
    /// ```
    ///
    /// Each distinct key path costs about one key-path read and one `==` per
    /// action (20–40 ns for a stored property chain). For thousands of
    /// observers of elements of one collection use ``observe(_:id:)``.
    public func observe<Value: Equatable & Sendable>(_ path: any KeyPath<State, Value> & Sendable) -> StateObservation<Value> {
        StateObservation { receive, end in subscribe(path, receive: receive, end: end) }
    }

    /// Calls `receive` with the element `id` of the keyed collection at `path`
    /// (`nil` while absent) now and whenever it changes. See ``observe(_:id:)``.
    public func subscribe<Elements: KeyedCollection>(
        _ path: any KeyPath<State, Elements> & Sendable, id: Elements.Key,
        _ receive: @escaping @Sendable (Elements.Value?) -> Void
    ) -> ObservationToken where Elements: SendableMetatype, Elements.Key: Sendable, Elements.Value: Equatable & Sendable {
        subscribe(path, id: id, receive: receive, end: nil)
    }

    /// The element `id` of the keyed collection at `path` (`nil` while absent),
    /// now and whenever it changes: **the way to observe many elements**.
    ///
    /// Element observers are grouped under their collection. When the reducer
    /// is a ``ForEachElement`` over the same key path, the store visits only the
    /// observers of the element the action changed, so 10,000 element
    /// observers cost what one does. Otherwise the collection is compared once
    /// per action (O(1) when its storage is unchanged) and the observed
    /// elements are looked up only when it changed.
    ///
    /// ```swift
    /// for await todo in store.observe(\.todos, id: "t7") { row.show(todo) }
    /// ```
    public func observe<Elements: KeyedCollection>(
        _ path: any KeyPath<State, Elements> & Sendable, id: Elements.Key
    ) -> StateObservation<Elements.Value?> where Elements: SendableMetatype, Elements.Key: Sendable, Elements.Value: Equatable & Sendable {
        StateObservation { receive, end in subscribe(path, id: id, receive: receive, end: end) }
    }

    /// Registers a key-path observer, in order with the dispatches.
    private func subscribe<Value: Equatable & Sendable>(
        _ path: any KeyPath<State, Value> & Sendable,
        receive: @escaping @Sendable (Value) -> Void, end: (@Sendable ((any Error)?) -> Void)?
    ) -> ObservationToken {
        register(receive: receive, end: end) { context, state, subscriber in
            context.observers.add(subscriber, path: path, state: state)
        } remove: { context, id in
            context.observers.removeObserver(id: id, path: path)
        }
    }

    /// Registers an element observer, in order with the dispatches.
    private func subscribe<Elements: KeyedCollection>(
        _ path: any KeyPath<State, Elements> & Sendable, id key: Elements.Key,
        receive: @escaping @Sendable (Elements.Value?) -> Void, end: (@Sendable ((any Error)?) -> Void)?
    ) -> ObservationToken where Elements: SendableMetatype, Elements.Key: Sendable, Elements.Value: Equatable & Sendable {
        register(receive: receive, end: end) { context, state, subscriber in
            context.observers.add(subscriber, path: path, key: key, state: state)
        } remove: { context, id in
            context.observers.removeObserver(id: id, collection: path, key: AnyHashable(key))
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
