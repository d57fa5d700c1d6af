extension DecodingError {
    /// A `dataCorrupted` error at `decoder`'s coding path whose message is
    /// `error`'s own (for types that decode a string or value and then
    /// validate it, such as ``JSONPointer`` and ``JSONPatchOperation``).
    static func dataCorrupted(
        _ error: some Error & CustomStringConvertible,
        at decoder: any Decoder
    ) -> DecodingError {
        .dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description, underlyingError: error))
    }
}
