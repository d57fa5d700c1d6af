/// Skips the plain bytes of a JSON string eight at a time: a 64-bit word with
/// no quote, backslash, control character (or, for the parser, non-ASCII byte)
/// needs no look at each byte. Each test tells whether SOME byte matches, never
/// which: `(w - 0x01…) & ~w & 0x80…` is non-zero exactly when a byte of `w` is
/// zero, `(w - n·0x01…) & ~w & 0x80…` when one is below `n` (`n` ≤ 128).
enum StringByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080
    private static let quotes: UInt64 = ones &* UInt64(UInt8(ascii: "\""))
    private static let backslashes: UInt64 = ones &* UInt64(UInt8(ascii: "\\"))
    private static let spaces: UInt64 = ones &* 0x20

    /// Whether some byte of `word` is zero.
    @inline(__always)
    private static func hasZeroByte(_ word: UInt64) -> Bool {
        (word &- ones) & ~word & highBits != 0
    }

    /// Whether `word` holds a quote, a backslash or a control character.
    @inline(__always)
    private static func needsEscape(_ word: UInt64) -> Bool {
        hasZeroByte(word ^ quotes) || hasZeroByte(word ^ backslashes) || (word &- spaces) & ~word & highBits != 0
    }

    /// The first index from `index` on whose word of eight may hold a byte
    /// the serializer escapes; `index` itself when fewer than eight bytes are left.
    @inline(__always)
    static func skipUnescaped(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
        skip(bytes, from: index, alsoStoppingAt: 0)
    }

    /// The first index from `index` on whose word of eight may hold a byte
    /// the parser must look at (a quote, a backslash, a control character,
    /// a non-ASCII byte); `index` itself when fewer than eight bytes are left.
    @inline(__always)
    static func skipPlainASCII(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
        skip(bytes, from: index, alsoStoppingAt: highBits)
    }

    /// Skips whole words that need no escape and have none of the bits of `mask`.
    @inline(__always)
    private static func skip(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int, alsoStoppingAt mask: UInt64) -> Int {
        guard let base = bytes.baseAddress else { return index }
        var index = index
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base).loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if word & mask != 0 || needsEscape(word) { break }
            index += 8
        }
        return index
    }
}
