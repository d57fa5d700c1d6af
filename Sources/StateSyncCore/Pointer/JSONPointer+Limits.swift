extension JSONPointer {
    /// How long a pointer from an untrusted source (a client's `subscribe` or
    /// `get`, an HTTP request's `path`) may be, so that every structure keyed
    /// by pointers has a bounded depth.
    public struct Limits: Sendable, Hashable {
        /// The most reference tokens. Default 32: deeper than any state a
        /// person designs (the board's deepest path has 3), while an index
        /// keyed by pointers stays small.
        public var maxTokens: Int
        /// The most UTF-8 bytes of the text form. Default 1,024: room for 32
        /// tokens of 30 characters.
        public var maxBytes: Int

        /// Limits with the documented defaults.
        public init(maxTokens: Int = 32, maxBytes: Int = 1_024) {
            self.maxTokens = Swift.max(1, maxTokens)
            self.maxBytes = Swift.max(1, maxBytes)
        }
    }

    /// Parses the RFC 6901 text form within `limits`, checking the length
    /// before parsing.
    /// - Throws: ``JSONPointerError`` when too long, too deep, or malformed.
    public init(parsing text: String, limits: Limits) throws(JSONPointerError) {
        let bytes = text.utf8.count
        guard bytes <= limits.maxBytes else { throw .tooLong(text, bytes: bytes, limit: limits.maxBytes) }
        try self.init(parsing: text)
        guard tokens.count <= limits.maxTokens else { throw .tooDeep(text, tokens: tokens.count, limit: limits.maxTokens) }
    }
}
