public import StateSyncWebClients

/// A static file the server serves over HTTP next to `/sync`, e.g. an app's
/// own page at `/` (``StateSyncServerConfiguration/pages``).
///
/// ```swift
/// let board = try WebClientFiles.file(named: "board.html")
/// configuration.pages = [WebPage(path: "/", file: board), WebPage(path: "/board", file: board)]
/// ```
public struct WebPage: Sendable, Hashable {
    /// The exact path served (`GET` and `HEAD`).
    public var path: String
    /// The `Content-Type` header.
    public var contentType: String
    /// The body.
    public var body: [UInt8]

    /// A page of `body` with `contentType` at `path`.
    public init(path: String, contentType: String, body: [UInt8]) {
        self.path = path
        self.contentType = contentType
        self.body = body
    }

    /// A file of `clients/js` at `path`.
    public init(path: String, file: WebClientFile) {
        self.init(path: path, contentType: file.contentType, body: file.bytes)
    }
}
