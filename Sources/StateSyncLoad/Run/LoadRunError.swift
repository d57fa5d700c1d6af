/// Why a load run could not take place at all.
public struct LoadRunError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Base: Equatable {
        case noConnection(url: String, reason: String)
    }

    private let base: Base

    /// Not one client could connect to `url`; `reason` is the first failure.
    public static func noConnection(url: String, reason: String) -> Self {
        Self(base: .noConnection(url: url, reason: reason))
    }

    /// A sentence naming the URL and the failure.
    public var description: String {
        switch base {
        case let .noConnection(url, reason): "no client could connect to \(url): \(reason)"
        }
    }
}
