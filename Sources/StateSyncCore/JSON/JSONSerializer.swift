/// Writes ``JSONValue``s as UTF-8 JSON text (RFC 8259).
///
/// Output is deterministic (object members in ``JSONObject`` key order).
/// Strings escape `"`, `\` and U+0000–U+001F only; integers are exact; doubles
/// use Swift's shortest round-trip form; a non-finite double is written as
/// `null`, as `JSON.stringify` does, so the output stays valid.
///
/// ```swift
/// var bytes: [UInt8] = []
/// JSONSerializer().serialize(["a": [1, 2]], into: &bytes)   // {"a":[1,2]}
/// JSONSerializer(style: .pretty).string(for: ["a": [1, 2]])
/// ```
public struct JSONSerializer: Sendable {
    /// The layout of the output.
    public struct Style: Sendable, Hashable {
        /// Spaces per nesting level; 0 means compact (no whitespace at all).
        let indentWidth: Int

        /// No whitespace: the form sent on the wire and stored.
        public static let compact = Style(indentWidth: 0)

        /// One member or element per line, indented by two spaces per level,
        /// with `": "` between a key and its value; empty containers stay
        /// `[]` and `{}`. For people and logs.
        public static let pretty = Style(indentWidth: 2)
    }

    /// The layout this serializer writes. Default: ``Style/compact``.
    public var style: Style

    /// A serializer writing `style`.
    public init(style: Style = .compact) {
        self.style = style
    }

    /// Appends the JSON text of `value` to `bytes` (the fast path: reuse one
    /// buffer for many messages).
    public func serialize(_ value: JSONValue, into bytes: inout [UInt8]) {
        if style.indentWidth == 0 {
            JSONSerializer.writeCompact(value, into: &bytes)
        } else {
            writePretty(value, depth: 0, into: &bytes)
        }
    }

    /// The JSON text of `value` as UTF-8 bytes.
    public func serialize(_ value: JSONValue) -> [UInt8] {
        var bytes: [UInt8] = []
        serialize(value, into: &bytes)
        return bytes
    }

    /// The JSON text of `value` as a `String`.
    public func string(for value: JSONValue) -> String {
        String(decoding: serialize(value), as: UTF8.self)
    }

    private static func writeCompact(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .array(let values):
            out.append(UInt8(ascii: "["))
            var first = true
            for element in values {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                writeCompact(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            var first = true
            object.forEachRun { keys, values in
                for (index, key) in keys.enumerated() {
                    if !first { out.append(UInt8(ascii: ",")) }
                    first = false
                    JSONTextWriter.writeString(key, into: &out)
                    out.append(UInt8(ascii: ":"))
                    writeCompact(values[index], into: &out)
                }
            }
            out.append(UInt8(ascii: "}"))
        default:
            JSONTextWriter.writeScalar(value, into: &out)
        }
    }

    private func writePretty(_ value: JSONValue, depth: Int, into out: inout [UInt8]) {
        switch value {
        case .array(let values) where !values.isEmpty:
            out.append(UInt8(ascii: "["))
            for (offset, element) in values.enumerated() {
                if offset > 0 { out.append(UInt8(ascii: ",")) }
                newline(depth: depth + 1, into: &out)
                writePretty(element, depth: depth + 1, into: &out)
            }
            newline(depth: depth, into: &out)
            out.append(UInt8(ascii: "]"))
        case .object(let object) where !object.isEmpty:
            out.append(UInt8(ascii: "{"))
            var first = true
            object.forEachRun { keys, values in
                for (index, key) in keys.enumerated() {
                    if !first { out.append(UInt8(ascii: ",")) }
                    first = false
                    newline(depth: depth + 1, into: &out)
                    JSONTextWriter.writeString(key, into: &out)
                    out.append(UInt8(ascii: ":"))
                    out.append(UInt8(ascii: " "))
                    writePretty(values[index], depth: depth + 1, into: &out)
                }
            }
            newline(depth: depth, into: &out)
            out.append(UInt8(ascii: "}"))
        case .array:
            JSONTextWriter.append("[]", to: &out)
        case .object:
            JSONTextWriter.append("{}", to: &out)
        default:
            JSONTextWriter.writeScalar(value, into: &out)
        }
    }

    private func newline(depth: Int, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * style.indentWidth))
    }
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON text: `{"a":[1,2.5,"x"]}`.
    public var description: String {
        JSONSerializer().string(for: self)
    }
}
