import StateSyncJournal

extension SharedJournal {
    /// The prefix of this node's session ids in a cluster (its node id and
    /// `-`, e.g. `n-3fa2c19b0a1d-`), unique across the nodes; `nil` when the
    /// journal keeps no cluster presence.
    var nodeSessionPrefix: String? {
        clusterPresence.map { "\($0.nodeID)-" }
    }
}
