/// What the generator measures of a `patch` message: its subscription id,
/// `base` and `rev`, and the store it names.
package struct PatchHeader: Equatable, Sendable {
    /// The subscription id.
    package var id: String
    /// The revision the patch applies to.
    package var base: UInt64
    /// The revision it brings the subscription to.
    package var rev: UInt64
    /// The store it is about (`nil`: `main`).
    package var store: String? = nil
}

/// Reads a `patch`'s top-level header by scanning its bytes, leaving `ops` unparsed
/// (every subscriber reads every patch). Answers `nil` when unsure, and the caller
/// decodes fully. Not a validator: a malformed `ops` goes unnoticed.
package enum PatchScanner {
    /// The header of `bytes` when they are a `patch` message the scanner
    /// can read; `nil` otherwise (then decode the message fully).
    package static func header(_ bytes: UnsafeRawBufferPointer) -> PatchHeader? {
        var cursor = Cursor(bytes: bytes)
        return cursor.patchHeader()
    }

    /// ``header(_:)`` of an array's bytes.
    package static func header(_ bytes: [UInt8]) -> PatchHeader? {
        bytes.withUnsafeBytes { header($0) }
    }

    private struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        private static let quote = UInt8(ascii: "\"")
        private static let backslash = UInt8(ascii: "\\")

        mutating func patchHeader() -> PatchHeader? {
            var type: Substring?
            var id: String?
            var base: UInt64?
            var rev: UInt64?
            var store: String?
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return nil }
            skipSpace()
            if take(UInt8(ascii: "}")) { return nil }
            while true {
                guard let key = plainString() else { return nil }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                switch key {
                case "type":
                    guard type == nil, let value = plainString() else { return nil }
                    type = Substring(value)
                case "id":
                    guard id == nil, let value = plainString() else { return nil }
                    id = value
                case "base":
                    guard base == nil, let value = unsignedInteger() else { return nil }
                    base = value
                case "rev":
                    guard rev == nil, let value = unsignedInteger() else { return nil }
                    rev = value
                case "store":
                    guard store == nil, let value = plainString() else { return nil }
                    store = value
                default:
                    guard skipValue() else { return nil }
                }
                skipSpace()
                if take(UInt8(ascii: ",")) {
                    skipSpace()
                    continue
                }
                guard take(UInt8(ascii: "}")) else { return nil }
                break
            }
            skipSpace()
            guard position == bytes.count, type == "patch", let id, let base, let rev else { return nil }
            return PatchHeader(id: id, base: base, rev: rev, store: store)
        }

        private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard current == byte else { return false }
            position += 1
            return true
        }

        private mutating func skipSpace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
        }

        /// A string without escapes or control characters (`nil` for any other).
        private mutating func plainString() -> String? {
            guard take(Self.quote) else { return nil }
            let start = position
            while let byte = current {
                if byte == Self.quote {
                    let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                    position += 1
                    return text
                }
                if byte == Self.backslash || byte < 0x20 { return nil }
                position += 1
            }
            return nil
        }

        /// A revision as the protocol's decoder takes it: an integer literal
        /// in `0...Int64.max` (no sign, fraction or exponent).
        private mutating func unsignedInteger() -> UInt64? {
            let start = position
            var value: UInt64 = 0
            while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowSum) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
                guard !overflowTimes, !overflowSum else { return nil }
                value = sum
                position += 1
            }
            let digits = position - start
            guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
            if let next = current, next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") { return nil }
            return value <= UInt64(Int64.max) ? value : nil
        }

        /// Moves past one value of any kind, strings and nesting included,
        /// up to the `,` or `}` (or space) that follows it.
        private mutating func skipValue() -> Bool {
            let start = position
            var depth = 0
            while let byte = current {
                switch byte {
                case Self.quote:
                    guard skipString() else { return false }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    position += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { return byte == UInt8(ascii: "}") && position > start }
                    depth -= 1
                    position += 1
                case UInt8(ascii: ","), 0x20, 0x0A, 0x0D, 0x09:
                    if depth == 0 { return position > start }
                    position += 1
                default:
                    position += 1
                }
            }
            return false
        }

        private mutating func skipString() -> Bool {
            position += 1
            while let byte = current {
                position += 1
                if byte == Self.backslash {
                    position += 1
                } else if byte == Self.quote {
                    return true
                }
            }
            return false
        }
    }
}
