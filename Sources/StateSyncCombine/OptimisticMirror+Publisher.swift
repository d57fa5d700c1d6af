public import OpenCombineShim
public import StateSyncClient
public import StateSyncCore

extension OptimisticMirror {
    /// The predicted value at `path` now and after every change, as a publisher
    /// of distinct values that never fails (OpenCombine on Linux). Values come
    /// from the client's actor: move them with `receive(on:)`.
    ///
    /// ```swift
    /// board.publisher(\.todos)
    ///     .receive(on: DispatchQueue.main)
    ///     .sink { todos in tableView.reload(todos) }
    ///     .store(in: &cancellables)
    /// ```
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
