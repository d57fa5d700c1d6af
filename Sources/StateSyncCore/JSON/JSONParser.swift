/// A strict RFC 8259 JSON parser working on UTF-8 bytes.
///
/// Rejects, with the byte offset: invalid UTF-8, unescaped control characters,
/// unpaired surrogate escapes (`\ud800`), invalid escapes, leading zeros,
/// `NaN`/`Infinity`, numbers too large for a double, trailing commas, duplicate
/// keys (also keys equal only after Unicode normalization), and anything after
/// the value. ``Limits`` bound nesting and input size, so hostile input fails
/// with an error. Integers that fit in `Int64` become
/// ``JSONValue/integer(_:)``, other numbers ``JSONValue/double(_:)``.
///
/// ```swift
/// let value = try JSONParser().parse(#"{"todos":[{"id":"t1","done":false}]}"#)
/// let bytes: [UInt8] = Array(#"[1, 2.5, "x"]"#.utf8)
/// let other = try JSONParser(limits: .init(maxDepth: 32)).parse(bytes)
/// ```
public struct JSONParser: Sendable {
    /// Bounds that keep hostile input cheap to reject.
    public struct Limits: Sendable, Hashable {
        /// The deepest nesting of arrays and objects accepted. Default 512:
        /// beyond any real document, yet shallow enough for the recursive
        /// parser on a thread's stack, even a 512 KiB secondary one.
        public var maxDepth: Int

        /// The largest input accepted, in bytes. Default 64 MiB: room for a
        /// large whole-state snapshot, while bounding what one message can make
        /// the parser allocate. Servers set their limit lower.
        public var maxInputBytes: Int

        /// Limits with the given values; each defaults as documented above.
        public init(maxDepth: Int = 512, maxInputBytes: Int = 64 << 20) {
            self.maxDepth = maxDepth
            self.maxInputBytes = maxInputBytes
        }
    }

    /// The limits in force. Default: ``Limits/init(maxDepth:maxInputBytes:)``.
    public var limits: Limits

    /// A parser with `limits`.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Parses JSON text held in raw memory.
    public func parse(_ buffer: UnsafeRawBufferPointer) throws(JSONParseError) -> JSONValue {
        guard buffer.count <= limits.maxInputBytes else {
            throw .tooLarge(size: buffer.count, limit: limits.maxInputBytes)
        }
        var reader = JSONByteReader(bytes: buffer.bindMemory(to: UInt8.self), maxDepth: limits.maxDepth)
        return try reader.parseDocument()
    }

    /// Parses UTF-8 JSON text.
    public func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONParseError) in try parse(buffer) }
        }.get()
    }

    /// Parses UTF-8 JSON text from any byte collection (contiguous ones are
    /// read in place; others are copied first).
    public func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        let result = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONParseError) in try parse(UnsafeRawBufferPointer(buffer)) }
        }
        return try (result ?? Result { () throws(JSONParseError) in try parse(Array(bytes)) }).get()
    }

    /// Parses JSON text.
    public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var text = text
        return try text.withUTF8 { buffer in
            Result { () throws(JSONParseError) in try parse(UnsafeRawBufferPointer(buffer)) }
        }.get()
    }
}

extension JSONValue {
    /// Parses JSON text with the default ``JSONParser/Limits``.
    public init(parsing text: String) throws(JSONParseError) {
        self = try JSONParser().parse(text)
    }

    /// Parses UTF-8 JSON text with the default ``JSONParser/Limits``.
    public init(parsing bytes: some Collection<UInt8>) throws(JSONParseError) {
        self = try JSONParser().parse(bytes)
    }
}
