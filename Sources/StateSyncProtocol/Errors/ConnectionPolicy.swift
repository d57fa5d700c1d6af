/// What an `error` does to the connection it is sent on.
public struct ConnectionPolicy: Hashable, Sendable, CustomStringConvertible {
    private enum Base: Hashable {
        case staysOpen
        case closes(UInt16)
        case closesWhenPersisting(UInt16)
    }

    private let base: Base

    private init(_ base: Base) {
        self.base = base
    }

    /// The connection stays open; the client may go on.
    public static let staysOpen = ConnectionPolicy(.staysOpen)

    /// The server sends the error, then closes the connection with the
    /// WebSocket close `code`.
    public static func closes(code: UInt16) -> ConnectionPolicy {
        ConnectionPolicy(.closes(code))
    }

    /// The connection stays open, but when the condition persists (how long
    /// is the server's configuration) it is closed with `code`.
    public static func closesWhenPersisting(code: UInt16) -> ConnectionPolicy {
        ConnectionPolicy(.closesWhenPersisting(code))
    }

    /// The close code sent right after the error, or `nil` when the
    /// connection stays open for now.
    public var closeCode: UInt16? {
        if case .closes(let code) = base { return code }
        return nil
    }

    /// The close code used when the condition persists, or `nil` when
    /// persisting changes nothing.
    public var closeCodeWhenPersisting: UInt16? {
        if case .closesWhenPersisting(let code) = base { return code }
        return nil
    }

    /// Whether the error closes the connection at once.
    public var closesConnection: Bool { closeCode != nil }

    /// `stays open`, `closes with 1008`, or `stays open; closes with 1008 if it persists`.
    public var description: String {
        switch base {
        case .staysOpen: "stays open"
        case .closes(let code): "closes with \(code)"
        case .closesWhenPersisting(let code): "stays open; closes with \(code) if it persists"
        }
    }
}
