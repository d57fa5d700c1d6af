extension LoadResult {
    /// The delivery latency of a run over several stores, store by store:
    /// every store is its own history, so one slow store hides in the
    /// run's overall percentiles.
    public struct StoresSummary: Codable, Sendable, Equatable {
        /// One store's deliveries.
        public struct Store: Codable, Sendable, Equatable {
            /// Its name (`bench-0`, …).
            public var name: String
            /// Deliveries measured in it.
            public var deliveries: UInt64
            /// Their 99th percentile, in ms (0 without deliveries).
            public var p99: Double
        }

        /// Stores the clients were spread over.
        public var count: Int
        /// Each store, in the order of their numbers.
        public var stores: [Store]

        /// The store with the highest p99 of those with deliveries, `nil` when none had any.
        public var slowest: Store? {
            stores.filter { $0.deliveries > 0 }.max { $0.p99 < $1.p99 }
        }
    }
}
