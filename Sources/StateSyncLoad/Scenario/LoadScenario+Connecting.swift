public import NIOCore
import WebSocket

extension LoadScenario {
    /// Clients one loopback source address takes: about a third of Linux's default
    /// ephemeral range (32768–60999), as the kernel's free-port search slows when it fills.
    public static let clientsPerSourceAddress = 10_000

    /// When every URL is on loopback and the clients need more ports than one address
    /// has, spreads them over 127.0.0.1, 127.0.0.2, …; given ``sourceAddresses`` stay.
    public mutating func spreadOverLoopback() {
        guard sourceAddresses.isEmpty, clients > Self.clientsPerSourceAddress,
              urls.allSatisfy({ (try? WebSocketURL($0))?.host.hasPrefix("127.") ?? false })
        else { return }
        let count = (clients + Self.clientsPerSourceAddress - 1) / Self.clientsPerSourceAddress
        sourceAddresses = (1...count).map { "127.0.0.\($0)" }
    }

    /// The address client `index` binds, or `nil` to let the system choose.
    func sourceAddress(ofClient index: Int) -> SocketAddress? {
        guard !sourceAddresses.isEmpty else { return nil }
        return try? SocketAddress(ipAddress: sourceAddresses[index % sourceAddresses.count], port: 0)  // validated
    }

    /// Throws a source address that is no IP address, or a connect rate that is not positive.
    func validateConnecting() throws(LoadScenarioError) {
        for address in sourceAddresses where (try? SocketAddress(ipAddress: address, port: 0)) == nil {
            throw .invalidValue("source-addresses", address, reason: "must be an IPv4 or IPv6 address of this machine")
        }
        guard connectRate > 0, connectRate.isFinite else {
            throw .invalidValue("connect-rate", "\(connectRate)", reason: "must be a positive number of connections per second")
        }
    }
}
