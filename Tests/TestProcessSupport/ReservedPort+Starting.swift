extension ReservedPort {
    /// Runs `start` with a port reserved and released just before, for a
    /// server that cannot listen on port 0 and say which port it got
    /// (HAProxy; PostgreSQL, whose port the tests must know beforehand).
    /// Another process may take the port in between (an outgoing
    /// connection's ephemeral port, as tests running in parallel make):
    /// when `start` says so by throwing ``Taken``, it runs again on another
    /// port, up to `attempts` times in all.
    package static func starting<T>(attempts: Int = 5, _ start: (_ port: Int) async throws -> T) async throws -> T {
        var attempt = 1
        while true {
            let reserved = try ReservedPort()
            reserved.release()
            do {
                return try await start(reserved.port)
            } catch is Taken where attempt < attempts {
                attempt += 1
            }
        }
    }

    /// What the `start` of ``starting(attempts:_:)`` throws when its server
    /// could not bind the port ("Address already in use").
    package struct Taken: Error, CustomStringConvertible {
        /// What the server said.
        package let description: String

        /// The port was taken; `description` says what the server said.
        package init(description: String) {
            self.description = description
        }
    }
}
