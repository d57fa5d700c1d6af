/// Why a connection of the load run failed.
struct LoadError: Error, CustomStringConvertible {
    private enum Base {
        case upgradeRefused(UInt)
        case closedDuringUpgrade
        case upgradeTimeout
        case badURL(String)
    }

    private let base: Base

    /// The server answered the upgrade request with this status instead of 101.
    static func upgradeRefused(status: UInt) -> LoadError { LoadError(base: .upgradeRefused(status)) }
    /// The connection closed before the upgrade completed.
    static let closedDuringUpgrade = LoadError(base: .closedDuringUpgrade)
    /// The upgrade did not complete within 15 s.
    static let upgradeTimeout = LoadError(base: .upgradeTimeout)
    /// The URL is not `ws://HOST[:PORT][/PATH]`.
    static func badURL(_ url: String) -> LoadError { LoadError(base: .badURL(url)) }

    var description: String {
        switch self.base {
        case .upgradeRefused(let status): "the server refused the upgrade with HTTP \(status)"
        case .closedDuringUpgrade: "the connection closed during the upgrade"
        case .upgradeTimeout: "the upgrade did not complete within 15 s"
        case .badURL(let url): "'\(url)' is not ws://HOST[:PORT][/PATH]"
        }
    }
}
