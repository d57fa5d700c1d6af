import NIOCore
import Synchronization

/// Counts a server's open TCP connections, in all and per ``ClientAddressKey``, and admits a new one only below
/// both limits; it stays counted until its channel closes, while a refused one (503) is never counted.
final class ConnectionAdmission: Sendable {
    /// Why a connection was refused: the 503 it gets.
    struct Refusal: Sendable, Equatable {
        let reason: String
    }

    private struct State {
        var total = 0
        var perAddress: [ClientAddressKey: Int] = [:]
    }

    private let maxConnections: Int
    private let maxPerAddress: Int
    private let state = Mutex(State())

    init(maxConnections: Int, maxPerAddress: Int) {
        self.maxConnections = maxConnections
        self.maxPerAddress = maxPerAddress
    }

    /// Connections counted now (tests check the release).
    var count: Int { state.withLock { $0.total } }

    /// Counts `channel` and returns `nil`, or returns why it is refused. An
    /// admitted channel is released when it closes.
    func admit(_ channel: any Channel) -> Refusal? {
        let key = channel.remoteAddress.map(ClientAddressKey.init)
        let refusal: Refusal? = state.withLock { state in
            if state.total >= maxConnections {
                return Refusal(reason: "the server is at its limit of \(maxConnections) connections; try again later")
            }
            if let key {
                let open = state.perAddress[key, default: 0]
                if open >= maxPerAddress {
                    return Refusal(reason: "too many connections from \(key) (at most \(maxPerAddress)); close some first")
                }
                state.perAddress[key] = open + 1
            }
            state.total += 1
            return nil
        }
        guard refusal == nil else { return refusal }
        channel.closeFuture.whenComplete { _ in
            self.state.withLock { state in
                state.total -= 1
                guard let key else { return }
                let open = state.perAddress[key, default: 1] - 1
                state.perAddress[key] = open > 0 ? open : nil
            }
        }
        return nil
    }
}
