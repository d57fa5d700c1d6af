extension MessageDecoder {
    /// Decodes a message sent by the server with the store it is about (its
    /// `store` field, ``StoreName/main`` without one) and, for a `snapshot`
    /// or `value`, the store's `epoch` when it carries one.
    ///
    /// - Throws: ``ProtocolError`` as ``decodeServerMessage(_:)`` does;
    ///   `invalid_store` for a `store` against ``StoreName/rule``, and
    ///   `bad_request` for a `store` or `epoch` that is not a string.
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
