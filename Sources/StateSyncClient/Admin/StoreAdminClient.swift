public import NIOSSL
import NIOHTTP1
import StateSyncCore
public import StateSyncProtocol
import WebSocket

/// The stores of a server for its operators, over its HTTP API on the port of its WebSocket URL
/// (docs/http-api.md, "Stores"): listing them and deleting one; with tokens, both need an `admin` token.
///
/// ```swift
/// let admin = try StoreAdminClient(url: "ws://127.0.0.1:8080/sync", token: "admin-token")
/// for store in try await admin.allStores() { print(store.name, store.sessions) }
/// try await admin.delete(try StoreName("team-42"))
/// ```
public struct StoreAdminClient: Sendable {
    /// The most stores a listing page holds (the server's bound), and the default page size.
    public static let maxPageSize = 1_000

    private let exchange: HTTPExchange
    private let token: String?

    /// A client of the server whose WebSocket URL is `url` (its path is not used); `timeout` bounds each request,
    /// connecting included. Throws ``WebSocketHandshakeError`` when `url` is not a WebSocket URL.
    public init(url: String, token: String?, tlsConfiguration: TLSConfiguration? = nil, timeout: Duration = .seconds(10)) throws {
        exchange = HTTPExchange(target: try WebSocketURL(url), tlsConfiguration: tlsConfiguration, timeout: timeout)
        self.token = token
    }

    /// One page of the listing: at most `limit` stores after `after`, in name order, and the `after` of the next
    /// page when more follow. Throws ``StoreAdminError``.
    public func stores(after: StoreName? = nil, limit: Int = maxPageSize) async throws(StoreAdminError) -> (stores: [StoreInfo], next: StoreName?) {
        var query = "limit=\(limit)"
        if let after { query += "&after=\(after.rawValue)" }   // a store name needs no percent-encoding
        let body = try await request(.GET, "/api/stores?\(query)")
        guard let stores = body["stores"]?.arrayValue else { throw .badAnswer("no \"stores\" in \(body)") }
        var next: StoreName?
        if let name = body["next"]?.stringValue {
            guard let parsed = try? StoreName(name) else { throw .badAnswer("\"next\" is not a store name: \(name)") }
            next = parsed
        }
        return (try stores.map(Self.info), next)
    }

    /// Every store of the server, paging through the listing until its end.
    ///
    /// - Throws: ``StoreAdminError``.
    public func allStores(pageSize: Int = maxPageSize) async throws(StoreAdminError) -> [StoreInfo] {
        var all: [StoreInfo] = []
        var after: StoreName?
        repeat {
            let page = try await stores(after: after, limit: pageSize)
            all += page.stores
            after = page.next
        } while after != nil
        return all
    }

    /// Deletes `store` and what it stored, for good; a refusal's ``StoreAdminError/status`` is 404 (no such
    /// store) or 409 (`main`, or sessions are in it).
    public func delete(_ store: StoreName) async throws(StoreAdminError) {
        _ = try await request(.DELETE, "/api/stores/\(store.rawValue)")
    }

    private func request(_ method: HTTPMethod, _ path: String) async throws(StoreAdminError) -> JSONValue {
        let headers = token.map { [("Authorization", "Bearer \($0)")] } ?? []
        let response = try await exchange.send(method, path, headers: headers)
        let body = try? JSONValue(parsing: response.body)
        guard response.status == 200 else {
            let code = body?["code"]?.stringValue ?? "http_\(response.status)"
            let message = body?["message"]?.stringValue ?? String(decoding: response.body, as: UTF8.self)
            throw .refused(status: response.status, code: code, message: message.trimmingSuffixNewline)
        }
        guard let body else { throw .badAnswer("the body is not JSON: \(String(decoding: response.body, as: UTF8.self))") }
        return body
    }

    private static func info(_ value: JSONValue) throws(StoreAdminError) -> StoreInfo {
        guard let text = value["name"]?.stringValue, let name = try? StoreName(text), let open = value["open"]?.boolValue,
              let sessions = value["sessions"]?.intValue
        else { throw .badAnswer("not a store: \(value)") }
        return StoreInfo(
            name: name, open: open, revision: value["rev"]?.int64Value.map { UInt64(clamping: $0) }, sessions: sessions,
            bytes: value["bytes"]?.intValue)
    }
}

private extension String {
    var trimmingSuffixNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}
