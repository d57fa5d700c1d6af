import NIOHTTP1
import WebSocket

/// Who may open `/cluster`: `Authorization: Bearer` with the cluster's secret
/// (``StoreJournals/clusterSecret``); any other request gets 401 before the upgrade.
struct ClusterLinkAuthorization: Sendable {
    let secret: String

    /// The refusal of `head`, or `nil` when it may go on.
    func refusal(of head: HTTPRequestHead) -> HTTPRouteResponse? {
        guard head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) == ClusterLinks.path else { return nil }
        let given = head.headers.bearerToken ?? ""
        guard SessionAuthentication.constantTimeEqual(Array(given.utf8), Array(secret.utf8)) else {
            return HTTPRouteResponse(status: .unauthorized, body: "the cluster's secret is required\n")
        }
        return nil
    }
}
