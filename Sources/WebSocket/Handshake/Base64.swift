/// Standard base64 (RFC 4648 §4, padded) for the handshake's key and accept values, so the module needs no
/// Foundation.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Encodes bytes with padding.
    static func encode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity((input.count + 2) / 3 * 4)
        var index = 0
        while index < input.count {
            let b0 = input[index]
            let b1 = index + 1 < input.count ? input[index + 1] : 0
            let b2 = index + 2 < input.count ? input[index + 2] : 0
            output.append(alphabet[Int(b0 >> 2)])
            output.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            output.append(index + 1 < input.count ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            output.append(index + 2 < input.count ? alphabet[Int(b2 & 0x3F)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes padded base64; returns `nil` for anything that is not canonical
    /// padded base64 (wrong length, foreign characters, misplaced padding).
    static func decode(_ string: some StringProtocol) -> [UInt8]? {
        let input = Array(string.utf8)
        guard input.count % 4 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(input.count / 4 * 3)
        var quad = 0
        while quad < input.count {
            let isLast = quad + 4 == input.count
            var values: [UInt8] = []
            var padding = 0
            for offset in 0..<4 {
                let character = input[quad + offset]
                if character == UInt8(ascii: "=") {
                    guard isLast, offset >= 2 else { return nil }
                    padding += 1
                } else {
                    guard padding == 0, let value = sextet(character) else { return nil }
                    values.append(value)
                }
            }
            output.append(values[0] << 2 | values[1] >> 4)
            if values.count > 2 { output.append(values[1] << 4 | values[2] >> 2) }
            if values.count > 3 { output.append(values[2] << 6 | values[3]) }
            quad += 4
        }
        return output
    }

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
