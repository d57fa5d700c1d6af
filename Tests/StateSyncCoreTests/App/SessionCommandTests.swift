import Foundation
import StateSyncCore
import Testing

/// A tiny app action with a Codable wire form, for the generic envelope.
private enum CounterAction: String, Codable, Sendable, Equatable {
    case increment
}

@Suite("SessionCommand")
struct SessionCommandTests {
    private let alice = SessionInfo(id: "s-91", name: "alice")

    @Test("the journal form round-trips and has the documented shape")
    func journalForm() throws {
        let cases: [(SessionCommand<CounterAction>, JSONValue)] = [
            (.dispatch(.increment, from: alice),
             ["command": "dispatch", "session": ["id": "s-91", "name": "alice"], "action": "increment"]),
            (.sessionJoined(alice), ["command": "sessionJoined", "session": ["id": "s-91", "name": "alice"]]),
            (.sessionLeft(alice), ["command": "sessionLeft", "session": ["id": "s-91", "name": "alice"]]),
            (.serverStarted, ["command": "serverStarted"]),
        ]
        for (command, json) in cases {
            #expect(try JSONValueEncoder().encode(command) == json)
            #expect(try JSONValueDecoder().decode(SessionCommand<CounterAction>.self, from: json) == command)
        }
    }

    @Test("an unknown command does not decode, and says which")
    func unknownCommand() throws {
        let error = try #require(throws: DecodingError.self) {
            try JSONValueDecoder().decode(SessionCommand<CounterAction>.self, from: ["command": "reboot"])
        }
        #expect("\(error)".contains(#"unknown session command \"reboot\""#) || "\(error)".contains(#"unknown session command "reboot""#))
    }

    @Test("action and session accessors")
    func accessors() {
        #expect(SessionCommand.dispatch(CounterAction.increment, from: alice).action == .increment)
        #expect(SessionCommand<CounterAction>.sessionJoined(alice).action == nil)
        #expect(SessionCommand<CounterAction>.sessionLeft(alice).session == alice)
        #expect(SessionCommand<CounterAction>.serverStarted.session == nil)
    }

    @Test("an app without session data lifts its reducer with Scope and action")
    func lifting() async {
        let counter = Reduce<Int, CounterAction> { count, _, _ in count += 1 }
        let lifted = Scope(state: \Int.self, action: \SessionCommand<CounterAction>.action) { counter }
        let store = Store(initialState: 0, reducer: lifted)
        _ = await store.dispatch(.sessionJoined(alice))
        _ = await store.dispatch(.dispatch(.increment, from: alice))
        #expect(store.state == 1)
        #expect(store.revision == 2)
    }
}
