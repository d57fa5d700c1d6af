/// The routing table of a ``WebSocketServer``: exact paths to routes, then
/// HTTP routes whose path has `{name}` segments (see ``HTTPRoute/path``).
struct ServerRouter: Sendable {
    /// WebSocket routes by path.
    let webSocketRoutes: [String: WebSocketRoute]
    /// Plain HTTP routes by exact path.
    private let exactHTTPRoutes: [String: HTTPRoute]
    /// Plain HTTP routes with `{name}` segments, in the order given.
    private let patternHTTPRoutes: [(pattern: RoutePattern, route: HTTPRoute)]

    init(webSocketRoutes: [WebSocketRoute], httpRoutes: [HTTPRoute]) {
        self.webSocketRoutes = Dictionary(webSocketRoutes.map { ($0.path, $0) }, uniquingKeysWith: { _, last in last })
        let patterns = httpRoutes.map { (pattern: RoutePattern($0.path), route: $0) }
        let exact = patterns.filter(\.pattern.isExact).map(\.route)
        self.exactHTTPRoutes = Dictionary(exact.map { ($0.path, $0) }, uniquingKeysWith: { _, last in last })
        self.patternHTTPRoutes = patterns.filter { !$0.pattern.isExact }
    }

    /// The HTTP route serving `path`, with the values of its `{name}`
    /// segments: an exact route first, else the first pattern that matches.
    func httpRoute(for path: String) -> RouteMatch? {
        if let route = exactHTTPRoutes[path] { return RouteMatch(route: route, parameters: [:]) }
        for (pattern, route) in patternHTTPRoutes {
            if let parameters = pattern.match(path) { return RouteMatch(route: route, parameters: parameters) }
        }
        return nil
    }
}

/// An ``HTTPRoute`` that serves a request's path, with its parameters' values.
struct RouteMatch: Sendable {
    let route: HTTPRoute
    let parameters: [String: String]
}

extension ServerRouter {

    /// The path part of a request target: everything before `?` or `#`.
    static func path(of uri: String) -> String {
        let end = uri.firstIndex { $0 == "?" || $0 == "#" } ?? uri.endIndex
        return String(uri[..<end])
    }
}
