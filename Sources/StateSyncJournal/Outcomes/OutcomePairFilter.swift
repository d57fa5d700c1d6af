/// The `(clientId, actionId)` pairs a journal remembered when the engine
/// started, as a Bloom filter: a pair it does not contain certainly has no
/// outcome from before the start, so after a restart a new pair is decided
/// in memory instead of looked up in the journal.
///
/// It may say "maybe" for a pair it was not given (about 0.07 % of them,
/// with ``bitsPerPair`` 16 and ``hashCount`` 7): that pair is looked up,
/// as every pair was before. It never says "no" for a pair it was given.
///
/// Memory: two bytes per pair, so bounded by the journal's outcomes (at
/// most about twice ``OutcomeRetention/perClient`` × ``OutcomeRetention/maxClients``
/// rows: 40 MB at the defaults' 20 million). The bits are hashed with the
/// process's `Hasher` seed: a filter is built and read in one process.
public struct OutcomePairFilter: Sendable {
    /// Bits per pair. 16 keeps false positives below 0.1 %.
    static let bitsPerPair = 16
    /// Bit positions per pair (the best count for 16 bits per pair is about 11; 7 costs fewer probes for nearly the same rate).
    static let hashCount = 7

    private var words: [UInt64]
    private let bitCount: Int

    /// An empty filter sized for `expectedPairs` pairs.
    public init(expectedPairs: Int) {
        let bits = Swift.max(64, Swift.max(0, expectedPairs) * Self.bitsPerPair)
        words = Array(repeating: 0, count: (bits + 63) / 64)
        bitCount = words.count * 64
    }

    /// Adds the pair `(clientID, actionID)`.
    public mutating func insert(clientID: String, actionID: String) {
        var positions = BitPositions(clientID, actionID)
        for _ in 0..<Self.hashCount {
            let bit = Int(positions.next() % UInt64(bitCount))
            words[bit / 64] |= 1 << UInt64(bit % 64)
        }
    }

    /// Whether the pair may have been added: `false` means certainly not.
    package func mayContain(_ key: OutcomeKey) -> Bool {
        var positions = BitPositions(key.clientID, key.actionID)
        for _ in 0..<Self.hashCount {
            let bit = Int(positions.next() % UInt64(bitCount))
            guard words[bit / 64] & (1 << UInt64(bit % 64)) != 0 else { return false }
        }
        return true
    }
}

/// A pair's bit positions: a SplitMix64 sequence seeded with the pair's
/// hash, so that each is drawn on its own. (Double hashing's positions are
/// fixed by two values modulo the filter's size: in a small filter two
/// pairs shared all of them about once in 2,048.)
private struct BitPositions {
    private var state: UInt64

    init(_ clientID: String, _ actionID: String) {
        var hasher = Hasher()
        hasher.combine(clientID)
        hasher.combine(actionID)
        state = UInt64(bitPattern: Int64(hasher.finalize()))
    }

    /// The next position, before it is taken modulo the filter's size.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
