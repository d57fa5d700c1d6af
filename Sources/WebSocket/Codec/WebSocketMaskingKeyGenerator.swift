/// A fast source of masking keys for a client's frames: wyrand, seeded from the system's cryptographic source
/// and re-seeded every 65,536 keys. Its keys are unpredictable without the seed, which is what RFC 6455 §5.3
/// asks for (masking guards intermediaries against cache poisoning; it is not encryption).
public struct WebSocketMaskingKeyGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64
    private var drawsUntilReseed: Int

    private static let reseedInterval = 1 << 16

    /// Creates a generator seeded from the system's random source.
    public init() {
        var system = SystemRandomNumberGenerator()
        self.state = system.next()
        self.drawsUntilReseed = Self.reseedInterval
    }

    /// Creates a generator with a fixed seed, for reproducible tests; it is
    /// still re-seeded from the system after 65,536 draws.
    public init(seed: UInt64) {
        self.state = seed
        self.drawsUntilReseed = Self.reseedInterval
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        drawsUntilReseed -= 1
        if drawsUntilReseed == 0 {
            var system = SystemRandomNumberGenerator()
            state ^= system.next()
            drawsUntilReseed = Self.reseedInterval
        }
        state &+= 0xa076_1d64_78bd_642f
        let product = state.multipliedFullWidth(by: state ^ 0xe703_7ed1_a0b4_28db)
        return product.high ^ product.low
    }

    /// The next masking key.
    public mutating func nextKey() -> WebSocketMaskingKey {
        WebSocketMaskingKey(rawValue: UInt32(truncatingIfNeeded: next()))
    }
}
