import StateSyncProtocol
import NIOCore
import NIOHTTP1
import WebSocket

/// The plain HTTP endpoints of a StateSync server.
enum ServerHTTPRoutes {
    /// `GET /health`: ``HealthStatus`` as JSON; 503 while stopping.
    static func health(_ status: @escaping @Sendable () -> HealthStatus) -> HTTPRoute {
        HTTPRoute(path: "/health") { _, _ in
            let current = status()
            return HTTPRouteResponse(
                status: current.status == "ok" ? .ok : .serviceUnavailable,
                headers: ["Content-Type": "application/json"], body: current.json + "\n")
        }
    }

    /// `GET /metrics` in the Prometheus text format. With `adminOnly`, a request
    /// needs a bearer token that is admin in `main` (401 without, 403 otherwise).
    static func metrics(
        _ exposition: @escaping @Sendable () -> [UInt8], adminOnly: Bool, authentication: SessionAuthentication
    ) -> HTTPRoute {
        let scrape: @Sendable () -> HTTPRouteResponse = {
            HTTPRouteResponse(
                status: .ok, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"], body: ByteBuffer(bytes: exposition()))
        }
        // Open metrics are answered on the event loop; a token to verify (a JWT) may suspend.
        guard adminOnly else { return HTTPRoute(path: "/metrics") { _, _ in scrape() } }
        return HTTPRoute(path: "/metrics", asyncHandler: { head, _ in
            switch await authentication.access(for: head.headers.bearerToken) {
            case .failure:
                return HTTPRouteResponse(status: .unauthorized, headers: ["WWW-Authenticate": "Bearer"], body: "metrics need an admin token\n")
            case .success(let access) where access.role(in: .main)?.mayAdminister != true:
                return HTTPRouteResponse(status: .forbidden, body: "metrics are for the admin role\n")
            case .success:
                return scrape()
            }
        })
    }

    /// `GET page.path`: the page's bytes, revalidated on every load (`no-cache`)
    /// so that a browser never runs a stale client against a newer server.
    static func page(_ page: WebPage) -> HTTPRoute {
        let body = ByteBuffer(bytes: page.body)
        return HTTPRoute(path: page.path) { _, _ in
            HTTPRouteResponse(
                status: .ok, headers: ["Content-Type": page.contentType, "Cache-Control": "no-cache"], body: body)
        }
    }
}
