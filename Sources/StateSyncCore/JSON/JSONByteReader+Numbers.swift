extension JSONByteReader {
    /// Exact powers of ten as doubles (10^22 is the largest exact one).
    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// Parses the number at `index` (RFC 8259 §6):
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < bytes.count else { throw .unexpectedEnd(at: index, expected: "a digit") }
        // Digits of the integer and fraction parts, as long as they fit.
        var mantissa: UInt64 = 0
        var mantissaExact = true
        var decimalExponent = 0
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count && isDigit(bytes[index]) { throw .leadingZero(at: start) }
        } else if isDigit(bytes[index]) {
            while index < bytes.count && isDigit(bytes[index]) {
                accumulate(bytes[index], into: &mantissa, exact: &mantissaExact, exponent: &decimalExponent)
                index += 1
            }
        } else {
            throw .invalidNumber(at: index, expected: "a digit")
        }
        var isInteger = true
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw .invalidNumber(at: index, expected: "a digit after '.'")
            }
            while index < bytes.count && isDigit(bytes[index]) {
                accumulate(bytes[index], into: &mantissa, exact: &mantissaExact, exponent: &decimalExponent)
                decimalExponent -= 1
                index += 1
            }
        }
        if index < bytes.count && (bytes[index] | 0x20) == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            var exponentNegative = false
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw .invalidNumber(at: index, expected: "a digit in the exponent")
            }
            var exponent = 0
            while index < bytes.count && isDigit(bytes[index]) {
                // Beyond a million the result is 0 or infinite anyway.
                exponent = min(exponent * 10 + Int(bytes[index] - UInt8(ascii: "0")), 1_000_000)
                index += 1
            }
            decimalExponent += exponentNegative ? -exponent : exponent
        }
        if isInteger && mantissaExact && decimalExponent == 0 {
            if negative {
                if mantissa <= UInt64(Int64.max) + 1 { return .integer(Int64(truncatingIfNeeded: 0 &- mantissa)) }
            } else if mantissa <= UInt64(Int64.max) {
                return .integer(Int64(mantissa))
            }
        }
        return .double(try makeDouble(
            mantissa: mantissa, exact: mantissaExact, exponent: decimalExponent, negative: negative, from: start
        ))
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    /// Adds one digit to the mantissa while it fits in 64 bits; once it does
    /// not, the digit only scales the exponent and the result is inexact.
    private func accumulate(_ digit: UInt8, into mantissa: inout UInt64, exact: inout Bool, exponent: inout Int) {
        let value = UInt64(digit - UInt8(ascii: "0"))
        let (times10, overflow1) = mantissa.multipliedReportingOverflow(by: 10)
        let (sum, overflow2) = times10.addingReportingOverflow(value)
        if overflow1 || overflow2 {
            exact = false
            exponent += 1
        } else {
            mantissa = sum
        }
    }

    /// The double for `mantissa × 10^exponent`: one correctly rounded operation
    /// when both parts are exact in a double, otherwise the standard library's
    /// correctly rounded conversion of the text.
    private func makeDouble(
        mantissa: UInt64,
        exact: Bool,
        exponent: Int,
        negative: Bool,
        from start: Int
    ) throws(JSONParseError) -> Double {
        if exact && mantissa <= 1 << 53 && abs(exponent) <= 22 {
            let significand = Double(mantissa)
            let magnitude = exponent >= 0
                ? significand * Self.exactPowersOfTen[exponent]
                : significand / Self.exactPowersOfTen[-exponent]
            return negative ? -magnitude : magnitude
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw .numberOutOfRange(text.count > 40 ? text.prefix(40) + "…" : text, at: start)
        }
        return value
    }
}
