import BoardApp
import Foundation
import StateSyncClient
import StateSyncCore
import StateSyncTestSupport
import Testing

/// The optimistic queue against a simulated server: random board actions
/// from several clients, interleaved with random deliveries of patches,
/// acks and rejects. At every step each client's prediction is its
/// confirmed state with its pending actions applied, and once everything
/// is answered every client shows exactly the server's state.
@Suite(.timeLimit(.minutes(1)))
struct OptimisticQueuePropertyTests {
    static let clientCount = 3

    @Test(arguments: 1...24 as ClosedRange<UInt64>)
    func everyPredictionIsConfirmedPlusPendingAndConvergesToTheServer(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let sessions = (0..<Self.clientCount).map { SessionInfo(id: "s-\($0)", name: "client\($0)") }
        var server = SimulatedBoardServer(sessions: sessions)
        var clients = sessions.indices.map {
            OptimisticQueue<Board>(confirmed: BoardState(), rev: 0, session: sessions[$0], clientID: "c\($0)")
        }
        var nextID = 0
        var rejected = 0

        for step in 0..<400 {
            let client = Int.random(in: 0..<Self.clientCount, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                nextID += 1
                let action = Self.randomAction(seeing: clients[client].predicted, using: &random)
                clients[client].enqueue(id: "a\(nextID)", action: action, at: Date(timeIntervalSince1970: Double(step)))
                server.receive(action, id: "a\(nextID)", from: client)
            case 4..<6:
                _ = server.reduceNext()
            default:
                if deliver(server.nextMessage(for: client), to: &clients[client]) { rejected += 1 }
            }
            for queue in clients {
                #expect(queue.predicted == Self.reference(queue), "seed \(seed), step \(step): prediction ≠ confirmed + pending")
            }
        }

        // Everything answered and delivered: each view is the server's state.
        while server.reduceNext() {}
        for client in clients.indices {
            while let message = server.nextMessage(for: client) {
                if deliver(message, to: &clients[client]) { rejected += 1 }
            }
            #expect(clients[client].pending.isEmpty)
            #expect(clients[client].predicted == server.state, "seed \(seed): client \(client) differs from the server")
            #expect(clients[client].confirmedRev == server.rev)
        }
        #expect(server.rev > 0, "seed \(seed): no action was accepted; the test tested nothing")
        #expect(rejected > 0, "seed \(seed): no action was rejected; rollbacks were not tested")
    }

    @Test func anActionInDoubtIsLeftOutUntilAnswered() {
        let alice = SessionInfo(id: "s-1", name: "alice")
        var queue = OptimisticQueue<Board>(confirmed: BoardState(), rev: 4, session: alice)
        queue.enqueue(id: "a1", action: .addTodo(title: "Milk"), at: Date())
        queue.enqueue(id: "a2", action: .addTodo(title: "Eggs"), at: Date())
        #expect(queue.predicted.todos == [Todo(id: "t5", title: "Milk"), Todo(id: "t6", title: "Eggs")])
        // After a reconnect: a1 may be in the server's state already (it is).
        queue.confirm(BoardState(todos: [Todo(id: "t5", title: "Milk")]), rev: 5)
        queue.doubt(ids: ["a1"])
        #expect(queue.predicted.todos == [Todo(id: "t5", title: "Milk"), Todo(id: "t6", title: "Eggs")])
        queue.enqueue(id: "a3", action: .addTodo(title: "Bread"), at: Date())
        #expect(queue.predicted.todos.map(\.id) == ["t5", "t6", "t7"])
        queue.settle(id: "a1")
        #expect(queue.pending.map(\.id) == ["a2", "a3"])
        #expect(queue.predicted.todos.map(\.title) == ["Milk", "Eggs", "Bread"])
    }

    /// Delivers `message`; `true` for a reject.
    private func deliver(_ message: SimulatedBoardServer.Message?, to queue: inout OptimisticQueue<Board>) -> Bool {
        switch message {
        case .patch(let state, let rev)?:
            queue.confirm(state, rev: rev)
        case .ack(let id)?:
            let wasPending = queue.settle(id: id)
            #expect(wasPending)
        case .reject(let id)?:
            let wasPending = queue.settle(id: id)
            #expect(wasPending)
            return true
        case nil:
            break
        }
        return false
    }

    /// The prediction by definition: the confirmed state with every pending
    /// action reduced in order, the ones the reducer accepts numbered from
    /// the confirmed revision on.
    static func reference(_ queue: OptimisticQueue<Board>) -> BoardState {
        var state = queue.confirmed
        var revision = queue.confirmedRev
        for pending in queue.pending where !pending.inDoubt {
            let meta = Meta(revision: revision + 1, clientID: queue.clientID, time: pending.time)
            if (try? BoardReducer().reduce(into: &state, action: .dispatch(pending.action, from: queue.session), meta: meta)) != nil {
                revision += 1
            }
        }
        return state
    }

    /// A random board action, about the todos `state` shows (as a user
    /// would pick them) or a stale or invalid one, so that some are rejected.
    static func randomAction(seeing state: BoardState, using random: inout SeededGenerator) -> BoardAction {
        let id = state.todos.randomElement(using: &random)?.id ?? "t\(Int.random(in: 1...40, using: &random))"
        let title = ["Milk", "Eggs", "Bread", ""].randomElement(using: &random)!
        switch Int.random(in: 0..<8, using: &random) {
        case 0, 1: return .addTodo(title: title)
        case 2: return .toggleTodo(id: id)
        case 3: return .renameTodo(id: id, title: title)
        case 4: return .removeTodo(id: id)
        case 5: return .clearCompleted
        case 6: return .increment(counter: ["hits", "misses"].randomElement(using: &random)!, by: Int64.random(in: -3...3, using: &random))
        default: return .postMessage(text: title)
        }
    }
}
