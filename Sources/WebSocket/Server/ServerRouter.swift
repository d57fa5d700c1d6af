/// The routing table of a ``WebSocketServer``: exact paths to routes.
struct ServerRouter: Sendable {
    /// WebSocket routes by path.
    let webSocketRoutes: [String: WebSocketRoute]
    /// Plain HTTP routes by path.
    let httpRoutes: [String: HTTPRoute]

    init(webSocketRoutes: [WebSocketRoute], httpRoutes: [HTTPRoute]) {
        self.webSocketRoutes = Dictionary(webSocketRoutes.map { ($0.path, $0) }, uniquingKeysWith: { _, last in last })
        self.httpRoutes = Dictionary(httpRoutes.map { ($0.path, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// The path part of a request target: everything before `?` or `#`.
    static func path(of uri: String) -> String {
        let end = uri.firstIndex { $0 == "?" || $0 == "#" } ?? uri.endIndex
        return String(uri[..<end])
    }
}
