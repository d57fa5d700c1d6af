/// What this endpoint asks for and accepts when negotiating permessage-deflate, and how it compresses. A server
/// adds the no-context-takeover flags that are set (RFC 7692 allows it unasked) and limits the windows; a client
/// offers them and always `client_max_window_bits`.
///
/// ```swift
/// var compression = PerMessageDeflateConfiguration()
/// compression.minimumMessageSize = 1024   // compress only messages of 1 KiB and more
/// ```
public struct PerMessageDeflateConfiguration: Hashable, Sendable {
    /// Whether the server resets its compressor after each message. Default `true`: no compression state between
    /// messages, and a broadcast is compressed once for all (``WebSocketPreparedMessage``), at some cost in ratio.
    public var serverNoContextTakeover: Bool
    /// Whether the client resets its compressor after each message. Default `true`: the server then keeps no
    /// inflate state between messages, so idle connections stay small.
    public var clientNoContextTakeover: Bool
    /// The largest window the server compresses with, 2^n bytes (8–15).
    /// Default `nil`: not constrained, which means 15 (32 KiB), zlib's best.
    public var serverMaxWindowBits: Int?
    /// The largest window the client may compress with, 2^n bytes (8–15).
    /// Default `nil`: not constrained, 15 (32 KiB). A server that sets it
    /// declines offers without `client_max_window_bits`.
    public var clientMaxWindowBits: Int?
    /// zlib compression level, 1 (fastest) to 9 (smallest). Default 6, zlib's
    /// own default, a good middle between speed and ratio.
    public var compressionLevel: Int
    /// zlib memory level, 1–9: the compressor uses about 2^(n+9) bytes for its
    /// hash tables. Default 8, zlib's default.
    public var memoryLevel: Int
    /// Messages smaller than this many bytes are sent uncompressed (RFC 7692
    /// lets every message choose). Default 256: below that deflate's block
    /// overhead and CPU cost outweigh what it saves on typical JSON.
    public var minimumMessageSize: Int

    /// Creates a configuration; every parameter has the default documented on its property.
    public init(
        serverNoContextTakeover: Bool = true,
        clientNoContextTakeover: Bool = true,
        serverMaxWindowBits: Int? = nil,
        clientMaxWindowBits: Int? = nil,
        compressionLevel: Int = 6,
        memoryLevel: Int = 8,
        minimumMessageSize: Int = 256
    ) {
        self.serverNoContextTakeover = serverNoContextTakeover
        self.clientNoContextTakeover = clientNoContextTakeover
        self.serverMaxWindowBits = serverMaxWindowBits
        self.clientMaxWindowBits = clientMaxWindowBits
        self.compressionLevel = compressionLevel
        self.memoryLevel = memoryLevel
        self.minimumMessageSize = minimumMessageSize
    }
}
