/// The two WebSocket endpoints of the baseline server; any other path gets 404.
enum Endpoint: String, Sendable {
    /// Every text or binary message goes back to its sender.
    case echo = "/echo"
    /// Every text message goes to every connected `/broadcast` client, the sender included.
    case broadcast = "/broadcast"

    /// The endpoint of a request target, ignoring its query.
    init?(uri: String) {
        let path = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        self.init(rawValue: String(path))
    }
}
