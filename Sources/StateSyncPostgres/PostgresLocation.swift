/// Where a ``PostgresJournal`` connects, parsed from
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` (or `postgresql://`), as
/// `statesync serve --postgres` and `STATESYNC_POSTGRES_URL` take it. The port defaults
/// to 5432 and the database to the user's name. TLS is not supported: a URL asking for
/// it (`sslmode=require`, `verify-ca`, `verify-full`) is refused, not served in the clear.
///
/// ```swift
/// let location = try PostgresLocation(url: "postgres://statesync@127.0.0.1:5432/statesync")
/// print(location)   // statesync@127.0.0.1:5432/statesync (never the password)
/// ```
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
    /// Why a URL is not a PostgreSQL location.
    public struct InvalidURL: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong with the URL (which it quotes without its password).
        public let description: String
    }

    /// The host name or address.
    public var host: String
    /// The TCP port (default 5432).
    public var port: Int
    /// The role to connect as.
    public var user: String
    /// The password, when the server asks for one.
    public var password: String?
    /// The database holding the StateSync tables.
    public var database: String

    /// Parses `url` (see the type's documentation).
    ///
    /// - Throws: ``InvalidURL`` naming what is missing or unsupported.
    public init(url: String) throws(InvalidURL) {
        let scheme = url.prefix { $0 != ":" }
        guard scheme == "postgres" || scheme == "postgresql", url.dropFirst(scheme.count).hasPrefix("://") else {
            throw InvalidURL(description: "the PostgreSQL URL must start with postgres:// (postgres://USER@HOST:PORT/DATABASE)")
        }
        var rest = Substring(url.dropFirst(scheme.count + 3))
        var query = Substring("")
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        let path = rest.firstIndex(of: "/").map { rest[rest.index(after: $0)...] } ?? ""
        let authority = rest.prefix { $0 != "/" }
        guard let at = authority.lastIndex(of: "@") else {
            throw InvalidURL(description: "the PostgreSQL URL names no user (postgres://USER@HOST:PORT/DATABASE)")
        }
        let credentials = authority[..<at]
        let address = authority[authority.index(after: at)...]
        let user = credentials.prefix { $0 != ":" }
        guard !user.isEmpty else { throw InvalidURL(description: "the PostgreSQL URL names no user") }
        self.user = Self.decoded(user)
        password = credentials.contains(":") ? Self.decoded(credentials.drop { $0 != ":" }.dropFirst()) : nil
        var hostPart = address
        port = 5432
        if let colon = address.lastIndex(of: ":"), !address.hasSuffix("]") {
            hostPart = address[..<colon]
            guard let port = Int(address[address.index(after: colon)...]), (1...65_535).contains(port) else {
                throw InvalidURL(description: "the PostgreSQL URL's port is not a TCP port (1…65535)")
            }
            self.port = port
        }
        host = String(hostPart.trimmingPrefix("[").prefix { $0 != "]" })
        guard !host.isEmpty else { throw InvalidURL(description: "the PostgreSQL URL names no host") }
        database = path.isEmpty ? self.user : Self.decoded(path)
        for parameter in query.split(separator: "&") {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.first == "sslmode" else { continue }
            let mode = pair.count > 1 ? pair[1] : ""
            guard mode == "disable" || mode == "allow" || mode == "prefer" else {
                throw InvalidURL(description: "sslmode=\(mode): TLS to PostgreSQL is not supported yet (use sslmode=disable on a trusted network)")
            }
        }
    }

    /// `USER@HOST:PORT/DATABASE`, for logs and error messages (no password).
    public var description: String { "\(user)@\(host):\(port)/\(database)" }

    /// `text` with its `%XX` escapes decoded (a password may hold `@` or `/`).
    private static func decoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(after: index)
            if text[index] == "%", text.distance(from: next, to: text.endIndex) >= 2,
               let byte = UInt8(text[next..<text.index(next, offsetBy: 2)], radix: 16) {
                bytes.append(byte)
                index = text.index(next, offsetBy: 2)
            } else {
                bytes.append(contentsOf: Array(String(text[index]).utf8))
                index = next
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
