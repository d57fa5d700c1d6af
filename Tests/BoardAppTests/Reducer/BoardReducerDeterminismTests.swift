import BoardApp
import Foundation
import StateSyncCore
import StateSyncProtocol
import Testing

@Suite("BoardReducer: determinism")
struct BoardReducerDeterminismTests {
    typealias F = BoardFixtures

    /// A history mixing every command kind, rejections included.
    static let history: [SessionCommand<BoardAction>] = {
        var commands: [SessionCommand<BoardAction>] = [.serverStarted, .sessionJoined(F.alice), .sessionJoined(F.bob)]
        for round in 0..<60 {
            commands.append(F.by(.addTodo(title: "todo \(round) ✓")))
            commands.append(F.by(.increment(counter: "c\(round % 3)", by: Int64(round) - 20), F.bob))
            commands.append(F.by(.postMessage(text: "line \(round)"), round.isMultiple(of: 2) ? F.alice : F.bob))
            commands.append(F.by(.toggleTodo(id: "t\(round * 4)")))   // some ids exist, some do not
            if round.isMultiple(of: 7) { commands.append(F.by(.clearCompleted)) }
            if round.isMultiple(of: 11) { commands.append(.sessionLeft(F.bob)) }
            if round.isMultiple(of: 5) { commands.append(.system(.rolled(by: "bob", sides: 20, result: Int64(round % 20) + 1))) }
        }
        commands.append(F.by(.postMessage(text: "")))                   // rejected
        commands.append(F.by(.removeTodo(id: "nope")))          // rejected
        return commands
    }()

    /// Replays `history` with the reducer alone, each command at revision
    /// `n` and a time that steps by 1.5 s, and returns the serialized state
    /// after every command.
    private func replay() throws -> [[UInt8]] {
        let reducer = BoardReducer()
        var state = BoardState()
        var revision: UInt64 = 0
        var serialized: [[UInt8]] = []
        for command in Self.history {
            let meta = Meta(revision: revision + 1, clientID: "c-1", time: F.time.addingTimeInterval(1.5 * Double(revision)))
            do {
                _ = try reducer.reduce(into: &state, action: command, meta: meta)
                revision += 1
            } catch {
                // A rejection leaves the state unchanged and uses no revision.
            }
            serialized.append(JSONSerializer().serialize(try JSONValueEncoder().encode(state)))
        }
        return serialized
    }

    @Test("replaying the same commands with the same metadata gives byte-identical states")
    func replayIsByteIdentical() throws {
        let first = try replay()
        let second = try replay()
        #expect(first == second)
        #expect(Set(first).count > 100)   // the history really changes the state
    }

    @Test("the journal form of the history decodes back to the same commands")
    func journalReplay() throws {
        let journal = Self.history.map { SessionCommandCoding.encode($0) }
        let decoded = try journal.map { try SessionCommandCoding.decode($0, as: BoardAction.self) }
        #expect(decoded == Self.history)
    }
}
