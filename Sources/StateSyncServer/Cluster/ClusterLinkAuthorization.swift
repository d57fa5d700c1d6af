import NIOHTTP1
import WebSocket

/// Who may open `/cluster`: a request whose `Authorization` is `Bearer`
/// and the cluster's secret (``StoreJournals/clusterSecret``), which every
/// node reads from the storage the nodes share. Any other request to it is
/// answered 401 before the upgrade; other paths are not its business.
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
