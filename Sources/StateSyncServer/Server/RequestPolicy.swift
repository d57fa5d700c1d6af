import Foundation
import NIOHTTP1
import WebSocket

/// Which browser pages (`Origin`) and `Host` names a server answers, checked
/// before routing: a foreign page cannot dispatch on a user's behalf, and a
/// loopback server refuses DNS-rebinding hosts (`403`).
///
/// ```swift
/// var policy = RequestPolicy()
/// policy.allowedOrigins = ["https://app.example.com"]
/// ```
public struct RequestPolicy: Sendable, Hashable {
    /// Origins (`scheme://host[:port]`) accepted besides the server's own;
    /// `*` accepts every origin. Default none: same origin only.
    public var allowedOrigins: [String]
    /// `Host` names accepted besides the loopback names when the server is
    /// bound to a loopback address (it accepts every name otherwise).
    /// Default none.
    public var allowedHosts: [String]

    /// A policy; the defaults are documented on the properties.
    public init(allowedOrigins: [String] = [], allowedHosts: [String] = []) {
        self.allowedOrigins = allowedOrigins
        self.allowedHosts = allowedHosts
    }

    /// The filter for a server bound to `bindHost`: `nil` for an accepted
    /// request, else the refusal.
    func filter(bindHost: String) -> @Sendable (HTTPRequestHead) -> HTTPRouteResponse? {
        let hosts: Set<String>? = Self.isLoopback(bindHost)
            ? Set(["localhost", "127.0.0.1", "::1"] + allowedHosts.map { $0.lowercased() }) : nil
        let origins = Set(allowedOrigins.map { $0.lowercased() })
        return { head in
            let host = head.headers.first(name: "Host")
            if let hosts, let host, !hosts.contains(Self.hostName(host)) {
                return Self.refusal("host \(host.prefix(100)) is not served here (bound to loopback; statesync serve --allow-host NAME allows a name)")
            }
            guard let origin = head.headers.first(name: "Origin") else { return nil }
            let lowered = origin.lowercased()
            if origins.contains("*") || origins.contains(lowered) { return nil }
            if let host, Self.authority(ofOrigin: lowered) == host.lowercased() { return nil }
            return Self.refusal("origin \(origin.prefix(100)) is not allowed (statesync serve --allow-origin ORIGIN allows one)")
        }
    }

    private static func refusal(_ message: String) -> HTTPRouteResponse {
        HTTPAPIError(status: .forbidden, code: "forbidden", message: message).response
    }

    /// The host name of a `Host` header value, without its port or IPv6 brackets.
    static func hostName(_ host: String) -> String {
        let lowered = host.lowercased()
        if lowered.hasPrefix("["), let end = lowered.firstIndex(of: "]") {
            return String(lowered[lowered.index(after: lowered.startIndex)..<end])
        }
        return String(lowered.split(separator: ":", maxSplits: 1).first ?? "")
    }

    /// `host[:port]` of an origin `scheme://host[:port]`.
    private static func authority(ofOrigin origin: String) -> String? {
        guard let separator = origin.range(of: "://") else { return nil }
        return String(origin[separator.upperBound...])
    }

    private static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
