/// The permessage-deflate settings two endpoints agreed on (RFC 7692 §7.1), describing both directions whichever
/// side reads them: ``PerMessageDeflate`` produces them, ``WebSocketConnectionStateMachine`` takes them.
public struct PerMessageDeflateParameters: Hashable, Sendable, CustomStringConvertible {
    /// The server resets its compressor after every message.
    public var serverNoContextTakeover: Bool
    /// The client resets its compressor after every message.
    public var clientNoContextTakeover: Bool
    /// The server compresses with a window of at most 2^n bytes (8–15; 15 when not negotiated).
    public var serverMaxWindowBits: Int
    /// The client compresses with a window of at most 2^n bytes (8–15; 15 when not negotiated).
    public var clientMaxWindowBits: Int

    /// Creates parameters; the defaults are what an offer or response without parameters means.
    public init(
        serverNoContextTakeover: Bool = false,
        clientNoContextTakeover: Bool = false,
        serverMaxWindowBits: Int = 15,
        clientMaxWindowBits: Int = 15
    ) {
        self.serverNoContextTakeover = serverNoContextTakeover
        self.clientNoContextTakeover = clientNoContextTakeover
        self.serverMaxWindowBits = serverMaxWindowBits
        self.clientMaxWindowBits = clientMaxWindowBits
    }

    /// Whether the endpoint playing `role` resets its compressor after every message.
    public func noContextTakeover(sentBy role: WebSocketRole) -> Bool {
        role == .server ? serverNoContextTakeover : clientNoContextTakeover
    }

    /// The window bits the endpoint playing `role` compresses with.
    public func maxWindowBits(sentBy role: WebSocketRole) -> Int {
        role == .server ? serverMaxWindowBits : clientMaxWindowBits
    }

    /// The parameters as they appear in a response header, e.g.
    /// `server_no_context_takeover; client_max_window_bits=10`.
    public var description: String {
        var parts: [String] = []
        if serverNoContextTakeover { parts.append("server_no_context_takeover") }
        if clientNoContextTakeover { parts.append("client_no_context_takeover") }
        if serverMaxWindowBits != 15 { parts.append("server_max_window_bits=\(serverMaxWindowBits)") }
        if clientMaxWindowBits != 15 { parts.append("client_max_window_bits=\(clientMaxWindowBits)") }
        return parts.joined(separator: "; ")
    }
}
