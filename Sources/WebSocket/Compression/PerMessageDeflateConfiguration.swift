/// What this endpoint asks for and accepts when negotiating permessage-deflate,
/// and how it compresses.
///
/// The same value serves both roles:
/// - A **server** puts `server_no_context_takeover` / `client_no_context_takeover`
///   in its response when the matching flag is set (RFC 7692 lets a server add
///   both unasked), answers with at most ``serverMaxWindowBits``, and asks the
///   client for at most ``clientMaxWindowBits`` (declining offers that cannot
///   limit the client's window when that is set).
/// - A **client** puts the flags and window bits in its offer, and always
///   offers `client_max_window_bits` so the server may limit its window.
///
/// ```swift
/// var compression = PerMessageDeflateConfiguration()
/// compression.minimumMessageSize = 1024   // compress only messages of 1 KiB and more
/// ```
public struct PerMessageDeflateConfiguration: Hashable, Sendable {
    /// Whether the server resets its compressor after each message. Default
    /// `true`: a server then keeps no compression state between messages
    /// (a zlib compressor with a 32 KiB window holds about 256 KiB), and can
    /// compress a broadcast once for every connection
    /// (``WebSocketPreparedMessage``); the cost is a worse ratio for series
    /// of similar small messages.
    public var serverNoContextTakeover: Bool
    /// Whether the client resets its compressor after each message. Default
    /// `true`: a server then keeps no inflate state between messages (zlib's
    /// inflater holds about 40 KiB with a 32 KiB window), so idle connections
    /// stay small; client messages are mostly small actions, so little ratio is lost.
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
