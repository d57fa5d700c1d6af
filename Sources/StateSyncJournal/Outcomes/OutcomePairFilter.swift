/// The `(clientId, actionId)` pairs a journal remembered when the engine started, as
/// a Bloom filter, so that after a restart a new pair is decided without a lookup.
/// It never says "no" for a pair it was given; a false "maybe" (about 0.07 %) is looked
/// up. Two bytes per pair; hashed with the process's `Hasher` seed, so one process only.
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

/// A pair's bit positions: a SplitMix64 sequence seeded with the pair's hash, so each
/// is drawn on its own (double hashing made pairs share all positions in small filters).
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
