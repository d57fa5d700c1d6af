public import NIOCore
public import NIOHTTP1

/// One request as a route made with ``HTTPRoute/init(path:methods:requestHandler:)``
/// or ``HTTPRoute/init(path:methods:streamHandler:)`` sees it: head, body
/// and who sent it.
public struct HTTPRouteRequest: Sendable {
    /// The request line and headers.
    public var head: HTTPRequestHead
    /// The body (at most the server's ``WebSocketServerConfiguration/maxRequestBodySize``).
    public var body: ByteBuffer
    /// The peer's address, when the socket knows it.
    public var remoteAddress: SocketAddress?
    /// The values of the route's `{name}` path segments, as sent (see ``HTTPRoute/path``).
    public var pathParameters: [String: String] = [:]

    /// A request.
    public init(head: HTTPRequestHead, body: ByteBuffer, remoteAddress: SocketAddress?) {
        self.head = head
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// The values of query parameter `name`, percent-decoded (`+` is a
    /// space), in order; a value that does not decode to UTF-8 is left out
    /// (``hasUndecodableQueryValue(_:)`` tells).
    public func queryValues(_ name: String) -> [String] {
        rawQueryValues(name).compactMap { raw in
            guard let raw else { return "" }
            return Self.decode(raw)
        }
    }

    /// Whether a value of query parameter `name` is not percent-encoded
    /// UTF-8 (a malformed escape, or bytes that are not UTF-8): a handler
    /// refuses the request rather than act as if the parameter were absent.
    public func hasUndecodableQueryValue(_ name: String) -> Bool {
        rawQueryValues(name).contains { raw in raw.map { Self.decode($0) == nil } ?? false }
    }

    /// The undecoded values of query parameter `name` (`nil` for a bare `name`).
    private func rawQueryValues(_ name: String) -> [Substring?] {
        guard let start = head.uri.firstIndex(of: "?") else { return [] }
        return head.uri[head.uri.index(after: start)...].split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard Self.decode(parts[0]) == name else { return nil }
            return .some(parts.count > 1 ? parts[1] : nil)
        }
    }

    /// `text` with `+` as a space and `%XX` escapes decoded; `nil` when an
    /// escape is malformed or the bytes are not UTF-8.
    static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
