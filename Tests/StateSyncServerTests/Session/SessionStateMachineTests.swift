import StateSyncCore
import StateSyncProtocol
@testable import StateSyncServer
import Testing

/// The session's decisions with no socket: hello first, auth, roles, limits.
@Suite
struct SessionStateMachineTests {
    static let start = ContinuousClock.now

    static func machine(
        _ configuration: SessionConfiguration = SessionConfiguration(), authentication: SessionAuthentication = .open
    ) -> SessionStateMachine {
        SessionStateMachine(configuration: configuration, authentication: authentication, now: start)
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func helloJoinsAsWriterWithoutAuthentication() {
        var machine = Self.machine()
        let action = machine.received(text: Self.bytes(#"{"type":"hello","clientId":"c1","name":"alice","extra":1}"#), now: Self.start)
        #expect(action == .join(clientID: "c1", name: "alice", access: .everyStore(.writer)))
        #expect(machine.access == .everyStore(.writer))
    }

    @Test(arguments: [#"{"type":"get","id":"g1","path":""}"#, "nope", #"{"type":"hello","name":5}"#])
    func anythingElseFirstClosesWithPolicyViolation(first: String) {
        var machine = Self.machine()
        guard case .replyAndClose(let message, let code) = machine.received(text: Self.bytes(first), now: Self.start) else {
            Issue.record("expected a close")
            return
        }
        #expect(code == 1008)
        #expect(message.type == "error")
        if case .error(_, let errorCode, _) = message { #expect(errorCode == .helloRequired) }
        #expect(machine.received(text: Self.bytes(#"{"type":"hello"}"#), now: Self.start) == .ignore)
    }

    @Test(arguments: [(nil, false), ("bad", false), ("r", true)] as [(String?, Bool)])
    func tokensDecideAdmission(token: String?, admitted: Bool) {
        var machine = Self.machine(authentication: .tokens(["r": .reader]))
        let action = machine.received(text: MessageEncoder().encode(ClientMessage.hello(clientID: nil, token: token, name: nil)), now: Self.start)
        if admitted {
            #expect(action == .join(clientID: nil, name: nil, access: .everyStore(.reader)))
        } else {
            #expect(action == .replyAndClose(.error(.unauthorized(tokenGiven: token != nil)), closeCode: 1008))
        }
    }

    @Test func readerDispatchIsRejectedForbidden() {
        var machine = Self.machine(authentication: .tokens(["r": .reader]))
        _ = machine.received(text: Self.bytes(#"{"type":"hello","token":"r"}"#), now: Self.start)
        let action = machine.received(text: Self.bytes(#"{"type":"dispatch","id":"a1","action":{"type":"x"}}"#), now: Self.start)
        guard case .reply(.reject(let id, let code, _), _) = action else {
            Issue.record("expected a reject, got \(action)")
            return
        }
        #expect(id == "a1")
        #expect(code == .forbidden)
    }

    @Test func subscriptionLimitCountsOpenIDs() {
        var configuration = SessionConfiguration()
        configuration.maxSubscriptions = 1
        var machine = Self.machine(configuration)
        _ = machine.received(text: Self.bytes(#"{"type":"hello"}"#), now: Self.start)
        let subscribe = Self.bytes(#"{"type":"subscribe","id":"s1","path":"/a"}"#)
        #expect(machine.received(text: subscribe, now: Self.start) == .request(.subscribe(id: "s1", path: JSONPointer(tokens: ["a"]), since: nil)))
        #expect(machine.received(text: subscribe, now: Self.start) == .request(.subscribe(id: "s1", path: JSONPointer(tokens: ["a"]), since: nil)))
        #expect(machine.received(text: Self.bytes(#"{"type":"subscribe","id":"s2","path":""}"#), now: Self.start)
            == .reply(.error(.tooManySubscriptions(limit: 1, id: "s2"))))
        #expect(machine.received(text: Self.bytes(#"{"type":"unsubscribe","id":"s1"}"#), now: Self.start) == .request(.unsubscribe(id: "s1")))
        #expect(machine.openSubscriptions().isEmpty)
    }

    @Test func binaryAfterHelloIsUnsupportedAndStaysOpen() {
        var machine = Self.machine()
        _ = machine.received(text: Self.bytes(#"{"type":"hello"}"#), now: Self.start)
        #expect(machine.receivedBinary(now: Self.start) == .reply(.error(.unsupportedBinary)))
        #expect(machine.access == .everyStore(.writer))
    }

    @Test func rateLimitRefusesThenClosesAndRecoversWithTime() {
        var configuration = SessionConfiguration()
        configuration.messagesPerSecond = 10
        configuration.burst = 2
        configuration.rateLimitedMessagesBeforeClose = 3
        var machine = Self.machine(configuration)
        _ = machine.received(text: Self.bytes(#"{"type":"hello"}"#), now: Self.start)
        let get = Self.bytes(#"{"type":"get","id":"g","path":""}"#)
        #expect(machine.received(text: get, now: Self.start) == .request(.get(id: "g", path: JSONPointer(tokens: []))))
        #expect(machine.received(text: get, now: Self.start) == .request(.get(id: "g", path: JSONPointer(tokens: []))))
        #expect(machine.received(text: get, now: Self.start) == .reply(.error(.rateLimited(messagesPerSecond: 10, id: "g"))))
        // A tenth of a second later one token is back.
        let later = Self.start.advanced(by: .milliseconds(100))
        #expect(machine.received(text: get, now: later) == .request(.get(id: "g", path: JSONPointer(tokens: []))))
        for _ in 0..<2 {
            #expect(machine.received(text: get, now: later) == .reply(.error(.rateLimited(messagesPerSecond: 10, id: "g"))))
        }
        #expect(machine.received(text: get, now: later) == .replyAndClose(.error(.rateLimited(messagesPerSecond: 10, id: "g")), closeCode: 1008))
        #expect(machine.received(text: get, now: later.advanced(by: .seconds(10))) == .ignore)
    }

    @Test func byteRateRefusesLargeMessagesWithinTheMessageRate() {
        var configuration = SessionConfiguration()
        configuration.maxMessageBytes = 1_024
        configuration.bytesPerSecond = 1_000
        var machine = Self.machine(configuration)
        #expect(configuration.byteBurst == 2_000)
        _ = machine.received(text: Self.bytes(#"{"type":"hello"}"#), now: Self.start)
        let padding = String(repeating: " ", count: 900)
        let get = Self.bytes(#"{"type":"get","id":"g","path":""}"# + padding)
        #expect(machine.received(text: get, now: Self.start) == .request(.get(id: "g", path: JSONPointer(tokens: []))))
        #expect(machine.received(text: get, now: Self.start) == .request(.get(id: "g", path: JSONPointer(tokens: []))))
        #expect(machine.received(text: get, now: Self.start) == .reply(.error(.byteRateLimited(bytesPerSecond: 1_000, id: "g"))))
        let dispatch = Self.bytes(#"{"type":"dispatch","id":"a","action":{"type":"clearCompleted"}}"# + padding)
        #expect(machine.received(text: dispatch, now: Self.start)
            == .reply(.reject(id: "a", code: .rateLimited, message: "too many bytes: at most 1000 per second on one connection")))
        // A second later a thousand bytes are back.
        #expect(machine.received(text: get, now: Self.start.advanced(by: .seconds(1))) == .request(.get(id: "g", path: JSONPointer(tokens: []))))
    }

    @Test func aLargeRefusedMessageIsNotReadForItsID() {
        var configuration = SessionConfiguration()
        configuration.bytesPerSecond = 1
        configuration.maxMessageBytes = 32_768
        var machine = Self.machine(configuration)
        _ = machine.received(text: Self.bytes(#"{"type":"hello"}"#), now: Self.start)
        let large = Self.bytes(#"{"type":"get","id":"g","path":""}"# + String(repeating: " ", count: 30_000))
        _ = machine.received(text: large, now: Self.start)
        #expect(machine.received(text: large, now: Self.start) == .reply(.error(.byteRateLimited(bytesPerSecond: 1, id: nil))))
    }

    @Test func oversizedAndDeepInputIsBadJSON() {
        var configuration = SessionConfiguration()
        configuration.maxNestingDepth = 8
        var machine = Self.machine(configuration)
        _ = machine.received(text: Self.bytes(#"{"type":"hello"}"#), now: Self.start)
        let deep = #"{"type":"dispatch","id":"a1","action":{"type":"x","v":"# + String(repeating: "[", count: 20) + String(repeating: "]", count: 20) + "}}"
        guard case .reply(.error(_, let code, _), _) = machine.received(text: Self.bytes(deep), now: Self.start) else {
            Issue.record("expected an error")
            return
        }
        #expect(code == .badJSON)
    }
}
