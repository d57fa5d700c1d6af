/// A condition a setting's value must meet, and the error naming the
/// setting as given when it does not.
struct SettingRule<Value: SettingValue>: Sendable {
    /// The error for `given`, or `nil` when it meets the rule.
    let check: @Sendable (Given<Value>) -> ConfigurationError?
}

extension SettingRule where Value: Comparable {
    /// At least `minimum`: `--max-path-depth must be at least 1, not 0`, and `reason` after a colon.
    static func atLeast(_ minimum: Value, _ reason: String? = nil) -> Self {
        Self { given in
            given.value >= minimum ? nil
                : .atLeast(given.origin, value: "\(given.value)", minimum: Self.bound(minimum), reason: reason)
        }
    }

    /// At least `minimum`, said as `--max-outbound-bytes 65536 is below 1048576 (reason)`.
    static func notBelow(_ minimum: Value, _ reason: String? = nil) -> Self {
        Self { given in
            given.value >= minimum ? nil
                : .below(given.origin, value: "\(given.value)", minimum: Self.bound(minimum), reason: reason)
        }
    }

    /// Within `range`, in `unit` (`seconds`, `(a TCP port)`).
    static func between(_ range: ClosedRange<Value>, _ unit: String) -> Self {
        Self { given in
            range.contains(given.value) ? nil
                : .notBetween(given.origin, value: "\(given.value)", lower: Self.bound(range.lowerBound),
                              upper: Self.bound(range.upperBound), unit: unit)
        }
    }

    /// A bound as people write it: `86400`, not `86400.0`.
    private static func bound(_ value: Value) -> String {
        if let double = value as? Double, double == double.rounded(), abs(double) < 1e15 { return "\(Int(double))" }
        return "\(value)"
    }
}

extension SettingRule where Value == String {
    /// `HOST:PORT` (an IPv6 host in brackets), at most 255 bytes, no spaces
    /// or slashes, the port 1…65535: an address other machines can dial.
    static var hostAndPort: Self {
        Self { given in
            let value = given.value
            let separator = value.lastIndex(of: ":")
            let host = separator.map { value[..<$0] } ?? ""
            let port = separator.flatMap { Int(value[value.index(after: $0)...]) } ?? 0
            let valid = value.utf8.count <= 255 && !host.isEmpty && (1...65_535).contains(port)
                && !value.contains(where: { $0.isWhitespace || $0 == "/" })
                && (host.first == "[") == (host.last == "]") && (host.first == "[" || !host.contains(":"))
            return valid ? nil : .notConvertible(given.origin, value: value, expected: "HOST:PORT (an IPv6 host in brackets)")
        }
    }

    /// One of `choices`: `--log-level loud is not trace, …, error or critical`.
    static func oneOf(_ choices: [String]) -> Self {
        Self { given in
            choices.contains(given.value) ? nil : .notOneOf(given.origin, value: given.value, choices: choices)
        }
    }
}
