/// A readable difference between an expected and an actual state, for test failures.
enum StateDiff {
    /// One line per difference: `- /path expected` and `+ /path actual` for
    /// encodable states (via their JSON and ``JSONPatch/diff(from:to:)``),
    /// otherwise both values in full.
    static func describe<State>(expected: State, actual: State) -> String {
        if let expected = expected as? any Encodable, let actual = actual as? any Encodable {
            do {
                let encoder = JSONValueEncoder()
                return describe(expected: try encoder.encode(expected), actual: try encoder.encode(actual))
            } catch {
                return "  (states not encodable: \(error))\n" + describeWhole(expected: expected, actual: actual)
            }
        }
        return describeWhole(expected: expected, actual: actual)
    }

    /// The JSON diff, one `-`/`+` pair per changed path.
    static func describe(expected: JSONValue, actual: JSONValue) -> String {
        var lines: [String] = []
        var document = expected
        for operation in JSONPatch.diff(from: expected, to: actual).operations {
            let path = operation.path
            switch operation {
            case .add(_, let value):
                lines.append("  - \(path) (absent)")
                lines.append("  + \(path) \(value)")
            case .remove:
                lines.append("  - \(path) \(document[path] ?? .null)")
                lines.append("  + \(path) (absent)")
            case .replace(_, let value):
                lines.append("  - \(path) \(document[path] ?? .null)")
                lines.append("  + \(path) \(value)")
            case .move, .copy, .test:
                lines.append("  \(operation.logLine)")
            }
            do {
                try JSONPatch([operation]).apply(to: &document)
            } catch {
                // Only for reading old values of later lines: fall back to the actual state.
                document = actual
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Both values in full, for states that are not `Encodable`.
    private static func describeWhole<State>(expected: State, actual: State) -> String {
        "  - \(expected)\n  + \(actual)"
    }
}
