extension LoadResult {
    /// What happened when every connection was dropped and every client resumed with
    /// `since` (see ``LoadScenario/reconnectStormAt``); its gaps and late deliveries are
    /// in the run's counts and histograms.
    public struct ReconnectStorm: Codable, Sendable, Equatable {
        /// Seconds into the measured run when the connections were dropped.
        public var atSeconds: Double
        /// Connections dropped.
        public var dropped: Int
        /// Clients whose connection opened again, and those that could not reconnect.
        public var reconnected: Int
        public var failed: Int
        /// Seconds from the drop until every reconnected client had resumed
        /// each of its subscriptions; `nil` when some never did.
        public var convergedSeconds: Double?
        /// Subscriptions resumed with a `patch` from their revision, and with
        /// a fresh `snapshot` (the server's history no longer held it).
        public var resumedByPatch: Int
        public var resumedBySnapshot: Int
        /// The server's resident set just before the drop, and the most it
        /// held until the storm converged (sampled every 100 ms); `nil`
        /// when the server's process was not measured.
        public var serverRSSBeforeBytes: Int?
        public var serverRSSPeakBytes: Int?

        /// Every client reconnected and resumed.
        public var converged: Bool { failed == 0 && convergedSeconds != nil }

        /// The server's peak over its memory before the drop.
        public var serverRSSRatio: Double? {
            guard let before = serverRSSBeforeBytes, let peak = serverRSSPeakBytes, before > 0 else { return nil }
            return Double(peak) / Double(before)
        }
    }
}
