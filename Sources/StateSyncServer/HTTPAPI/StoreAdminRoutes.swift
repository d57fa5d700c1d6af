import NIOHTTP1
import StateSyncCore
import StateSyncProtocol
import WebSocket

/// The stores of a server for its operators (docs/http-api.md):
/// `GET /api/stores` lists them, `DELETE /api/stores/NAME` deletes one.
/// Admin only when authentication is on, as the devtools are.
struct StoreAdminRoutes<App: StateSyncApp>: Sendable {
    /// The most stores one listing returns, and its default.
    static var maxListed: Int { 1_000 }

    let stores: StoreDirectory<App>
    let access: HTTPAPIAccess

    /// The two routes.
    var routes: [HTTPRoute] {
        [
            HTTPRoute(path: "/api/stores", methods: [.GET], requestHandler: { request in await list(request) }),
            HTTPRoute(path: "/api/stores/{store}", methods: [.DELETE], requestHandler: { request in await delete(request) }),
        ]
    }

    /// `GET /api/stores?after=NAME&limit=N`: `{"stores":[{"name","open","rev","sessions","bytes"}…],"next":NAME}`
    /// in name order; `next` (present when more follow) is the `after` of the next page.
    func list(_ request: HTTPRouteRequest) async -> HTTPRouteResponse {
        do throws(HTTPAPIError) {
            try await requireAdmin(request, in: .main)
            guard !request.hasUndecodableQueryValue("after") else {
                throw HTTPAPIError(.invalidStore("(not percent-encoded UTF-8)", id: nil))
            }
            var after: StoreName?
            if let text = request.queryValues("after").first { after = try HTTPAPIError.storeName(text) }
            var limit = Self.maxListed
            if let text = request.queryValues("limit").first {
                guard let value = Int(text), (1...Self.maxListed).contains(value) else {
                    throw HTTPAPIError(status: .badRequest, code: "bad_request", message: "limit must be an integer from 1 to \(Self.maxListed)")
                }
                limit = value
            }
            let page = await stores.summaries(after: after, limit: limit + 1)
            var body: JSONObject = ["stores": .array(page.prefix(limit).map(\.json))]
            if page.count > limit, let last = page.prefix(limit).last { body["next"] = .string(last.name.rawValue) }
            return HTTPRouteResponse(
                status: .ok, headers: ["Content-Type": "application/json"], body: JSONSerializer().string(for: .object(body)) + "\n")
        } catch {
            return error.response
        }
    }

    /// `DELETE /api/stores/NAME`: `200 {"deleted":NAME}`; `404` when there
    /// is none, `409` while sessions are in it or for `main`.
    func delete(_ request: HTTPRouteRequest) async -> HTTPRouteResponse {
        do throws(HTTPAPIError) {
            let store = try HTTPAPIError.storeName(request.pathParameters["store"] ?? "")
            try await requireAdmin(request, in: store)
            do {
                try await stores.delete(store)
            } catch {
                let (status, code): (HTTPResponseStatus, String) = switch error {
                case .notFound: (.notFound, "not_found")
                case .mainStays, .inUse: (.conflict, "conflict")
                case .storage: (.internalServerError, "internal_error")
                }
                throw HTTPAPIError(status: status, code: code, message: error.description)
            }
            return HTTPRouteResponse(
                status: .ok, headers: ["Content-Type": "application/json"],
                body: JSONSerializer().string(for: ["deleted": .string(store.rawValue)]) + "\n")
        } catch {
            return error.response
        }
    }

    /// Passes when tokens are off or the caller is admin in `store`
    /// (listing: in `main`, the server's own store).
    private func requireAdmin(_ request: HTTPRouteRequest, in store: StoreName) async throws(HTTPAPIError) {
        let role = try await access.role(of: request, in: store)
        guard access.authentication.isRequired, !role.mayAdminister else { return }
        throw HTTPAPIError(
            status: .forbidden, code: "forbidden",
            message: "stores are listed and deleted by the admin role; this token's role in \(store) is \(role.rawValue)")
    }
}
