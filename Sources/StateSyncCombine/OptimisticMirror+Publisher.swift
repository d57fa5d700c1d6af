public import OpenCombineShim
public import StateSyncClient
public import StateSyncCore

extension OptimisticMirror {
    /// The predicted value at `path` now and after every change, as a
    /// publisher of distinct values that never fails: what an RxSwift
    /// `Driver` or a `ViewStore.publisher` gave. Apple's Combine where it
    /// exists, OpenCombine elsewhere (Linux).
    ///
    /// ```swift
    /// board.publisher(\.todos)
    ///     .receive(on: DispatchQueue.main)
    ///     .sink { todos in tableView.reload(todos) }
    ///     .store(in: &cancellables)
    /// ```
    ///
    /// Each subscriber gets its own ``subscribe(_:_:)`` callback, started
    /// when it subscribes and cancelled with it. Values come from the
    /// client's actor: move them to the main thread with `receive(on:)`.
    public func publisher<Value: Equatable & Sendable>(_ path: any KeyPath<App.State, Value> & Sendable) -> AnyPublisher<Value, Never> {
        Deferred {
            let relay = SubjectRelay(self.state[keyPath: path])
            let token = self.subscribe(path) { relay.send($0) }   // the value now first: the same, dropped below
            return relay.subject
                .removeDuplicates()
                .handleEvents(receiveCancel: { token.cancel() })
        }
        .eraseToAnyPublisher()
    }
}
