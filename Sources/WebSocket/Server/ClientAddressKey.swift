public import NIOCore

/// What per-address limits count a client by: its IPv4 address, or its IPv6 /64 (one host usually holds a
/// whole /64); an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) counts as the IPv4 address.
///
/// ```swift
/// let key = ClientAddressKey(try SocketAddress(ipAddress: "2001:db8::1", port: 443))
/// key == ClientAddressKey(try SocketAddress(ipAddress: "2001:db8::2", port: 80))   // true: one /64
/// ```
public struct ClientAddressKey: Hashable, Sendable, CustomStringConvertible {
    private enum Base: Hashable, Sendable {
        case v4(UInt32)
        case v6(network: UInt64)
        case local
    }

    private let base: Base

    /// The key of `address`; Unix-domain peers share one key.
    public init(_ address: SocketAddress) {
        // The raw sockaddr: sockaddr_in has the address at bytes 4..<8,
        // sockaddr_in6 at 8..<24 (after family, port and flow info).
        let bytes = address.withSockAddr { pointer, size in Array(UnsafeRawBufferPointer(start: pointer, count: size)) }
        switch address {
        case .v4:
            base = .v4(bytes[4..<8].reduce(0) { $0 << 8 | UInt32($1) })
        case .v6:
            let ip = bytes[8..<24]
            if ip.prefix(10).allSatisfy({ $0 == 0 }), ip[ip.startIndex + 10] == 0xFF, ip[ip.startIndex + 11] == 0xFF {
                base = .v4(ip.suffix(4).reduce(0) { $0 << 8 | UInt32($1) })
            } else {
                base = .v6(network: ip.prefix(8).reduce(0) { $0 << 8 | UInt64($1) })
            }
        case .unixDomainSocket:
            base = .local
        }
    }

    /// `203.0.113.7`, `2001:db8:0:1::/64` style (the network's four groups), or `local`.
    public var description: String {
        switch base {
        case .v4(let value):
            return (0..<4).reversed().map { String((value >> ($0 * 8)) & 0xFF) }.joined(separator: ".")
        case .v6(let network):
            let groups = (0..<4).reversed().map { String((network >> ($0 * 16)) & 0xFFFF, radix: 16) }
            return groups.joined(separator: ":") + "::/64"
        case .local:
            return "local"
        }
    }
}
