import Synchronization

/// One ``WebSocketConfiguration`` that every connection configured alike
/// refers to, instead of each holding a copy of its 120 bytes: a server
/// with 100,000 idle connections has one route configuration or a few.
final class SharedConfiguration: Sendable {
    let value: WebSocketConfiguration

    fileprivate init(_ value: WebSocketConfiguration) {
        self.value = value
    }
}

/// The configurations met so far, each shared; at most ``limit`` of them
/// (beyond it each connection gets its own copy again, so that a program
/// making a new configuration per connection does not grow it without bound).
final class SharedConfigurations: Sendable {
    /// The table of this process's connections.
    static let process = SharedConfigurations()

    let limit: Int
    private let known = Mutex<[WebSocketConfiguration: SharedConfiguration]>([:])

    init(limit: Int = 64) {
        self.limit = limit
    }

    /// The shared instance of `configuration`.
    func of(_ configuration: WebSocketConfiguration) -> SharedConfiguration {
        known.withLock { known in
            if let shared = known[configuration] { return shared }
            let shared = SharedConfiguration(configuration)
            if known.count < limit { known[configuration] = shared }
            return shared
        }
    }
}
