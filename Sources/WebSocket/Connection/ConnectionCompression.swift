/// A connection's permessage-deflate: the negotiated parameters and the zlib streams it holds now; kept out of
/// line by ``WebSocketConnectionStateMachine``, so a connection without compression has none.
struct ConnectionCompression {
    /// The negotiated parameters.
    let parameters: PerMessageDeflateParameters
    /// The stream compressing outbound messages, while one is held.
    var compressor: PerMessageDeflateCompressor?
    /// The stream inflating inbound messages, while one is held.
    var decompressor: PerMessageDeflateDecompressor?
}
