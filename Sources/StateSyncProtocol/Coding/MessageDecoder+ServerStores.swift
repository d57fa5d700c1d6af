extension MessageDecoder {
    /// Decodes a server message with its store (``StoreName/main`` without a
    /// `store` field) and, for a `snapshot` or `value`, its `epoch` if any.
    /// - Throws: ``ProtocolError`` as ``decodeServerMessage(_:)``;
    ///   `invalid_store` or `bad_request` for a bad `store` or `epoch`.
    public func decodeStoreScopedServerMessage(_ bytes: some Collection<UInt8>) throws(ProtocolError) -> StoreScopedServerMessage {
        let fields = try parseObject(bytes)
        let message = try serverMessage(fields)
        var epoch: String?
        switch message {
        case .snapshot, .value: epoch = try fields.optionalString("epoch")
        default: break
        }
        guard let name = try fields.optionalString("store") else {
            return StoreScopedServerMessage(message: message, epoch: epoch)
        }
        guard StoreName.isValid(name) else { throw .invalidStore(name, id: fields.id) }
        return StoreScopedServerMessage(message: message, store: try StoreName(name), epoch: epoch)
    }
}
