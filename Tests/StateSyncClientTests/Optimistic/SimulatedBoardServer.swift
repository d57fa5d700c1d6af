import BoardApp
import Foundation
import StateSyncClient
import StateSyncCore

/// The server side of the property test, without a network: it reduces
/// the clients' actions in the order they arrive with the board's reducer
/// and real ``Meta``, and queues for each client what the protocol sends:
/// the new state after every accepted action (a patch), then the sender's
/// ack, or its reject.
struct SimulatedBoardServer {
    /// What one client is sent, in order.
    enum Message {
        case patch(BoardState, rev: UInt64)
        case ack(id: String)
        case reject(id: String)
    }

    private(set) var state = BoardState()
    private(set) var rev: UInt64 = 0
    /// Dispatches not reduced yet: (client, action id, action).
    private(set) var inbox: [(client: Int, id: String, action: BoardAction)] = []
    /// Each client's messages not delivered yet.
    var outboxes: [[Message]]
    let sessions: [SessionInfo]
    /// The server's clock: later than any client's, so predicted times differ.
    private var clock = Date(timeIntervalSince1970: 1_800_000_000)

    init(sessions: [SessionInfo]) {
        self.sessions = sessions
        outboxes = Array(repeating: [], count: sessions.count)
    }

    /// Client `client` sent `action` as `id`.
    mutating func receive(_ action: BoardAction, id: String, from client: Int) {
        inbox.append((client, id, action))
    }

    /// Reduces the oldest dispatch; `false` when none is waiting.
    mutating func reduceNext() -> Bool {
        guard !inbox.isEmpty else { return false }
        let (client, id, action) = inbox.removeFirst()
        clock += 1.5
        var next = state
        let meta = Meta(revision: rev + 1, clientID: "c\(client)", time: clock)
        do {
            _ = try BoardReducer().reduce(into: &next, action: .dispatch(action, from: sessions[client]), meta: meta)
            state = next
            rev += 1
            for index in outboxes.indices { outboxes[index].append(.patch(state, rev: rev)) }
            outboxes[client].append(.ack(id: id))
        } catch {
            outboxes[client].append(.reject(id: id))
        }
        return true
    }

    /// Takes the next message for `client`, if any.
    mutating func nextMessage(for client: Int) -> Message? {
        outboxes[client].isEmpty ? nil : outboxes[client].removeFirst()
    }
}
