/// A connection's permessage-deflate: the parameters negotiated in the
/// handshake and the zlib streams it holds right now. Kept out of line by
/// ``WebSocketConnectionStateMachine``: a connection without compression
/// has none.
struct ConnectionCompression {
    /// The negotiated parameters.
    let parameters: PerMessageDeflateParameters
    /// The stream compressing outbound messages, while one is held.
    var compressor: PerMessageDeflateCompressor?
    /// The stream inflating inbound messages, while one is held.
    var decompressor: PerMessageDeflateDecompressor?
}
