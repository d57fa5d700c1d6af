import NIOCore
import StateSyncClient
import StateSyncCore
import StateSyncProtocol
import Synchronization
import Testing
import WebSocket

/// A dispatch whose first send went unanswered (its connection closed, as
/// after a commit of unknown outcome) may have been applied: a later
/// `unavailable` refusal says only that the re-send was not, so the client
/// keeps it pending and sends it again until it is decided. A first send
/// refused `unavailable` fails at once. The server is scripted, as bytes:
/// a real one cannot be made to lose a commit's answer and then fail its
/// storage on cue.
@Suite(.timeLimit(.minutes(1)))
struct ClientInDoubtDispatchTests {
    @Test func anUnavailableRefusalOfAReSentDispatchIsRetriedUntilItIsDecided() async throws {
        let script = InDoubtScript()
        let route = WebSocketRoute(path: "/sync", handshake: .init(subprotocols: [ProtocolVersion.subprotocol])) { connection in
            try await script.serve(connection)
        }
        let server = try WebSocketServer(routes: [route])
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            let port = try await server.waitUntilStarted().port ?? 0
            var configuration = ClientFixtures.configuration("ws://127.0.0.1:\(port)/sync")
            configuration.reconnect = ReconnectPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(100), jitter: 0)
            let client = StateSyncClient(configuration: configuration)
            group.addTask { try await client.run() }
            let rev = try await client.dispatch(ClientFixtures.increment("hits"))
            #expect(rev == 7, "the ack the third send got")
            await #expect(throws: DispatchRejection.self) {
                try await client.dispatch(ClientFixtures.increment("hits"))
            }
            await client.close()
            server.shutdown()
            try await group.waitForAll()
        }
        let sends = script.dispatches
        #expect(sends.count == 2, "two connections: \(sends)")
        let first = try #require(sends.first?.first)
        #expect(sends[0] == [first])
        #expect(sends.count == 2 && sends[1].count == 4 && sends[1].prefix(3).allSatisfy { $0 == first } && sends[1][3] != first,
                "re-sent after the close, refused, sent again and acked; then a new one: \(sends)")
    }
}

/// The scripted server: the first connection takes one dispatch and closes
/// unanswered (1008); the second refuses that dispatch's re-send
/// `unavailable` twice, acks its third send at revision 7, and refuses the
/// next new dispatch `unavailable`.
private final class InDoubtScript: Sendable {
    private let log = Mutex<[[String]]>([])

    /// The dispatch ids each connection received, in order.
    var dispatches: [[String]] { log.withLock { $0 } }

    func serve(_ connection: WebSocketConnection) async throws {
        let number = log.withLock { log in
            log.append([])
            return log.count
        }
        var answered = 0
        for await message in connection.inbound {
            let object = try JSONValue(parsing: message.data.readableBytesView)
            switch object["type"]?.stringValue {
            case "hello":
                try await connection.outbound.send(text: #"{"type":"welcome","session":"s-\#(number)","epoch":"e-1","rev":0,"role":"writer","server":"script"}"#)
            case "dispatch":
                let id = object["id"]?.stringValue ?? ""
                log.withLock { $0[number - 1].append(id) }
                guard number == 2 else {
                    try await connection.outbound.close(code: .policyViolation, reason: "reconnect and send it again")
                    return
                }
                answered += 1
                let answer = answered == 3
                    ? #"{"type":"ack","id":"\#(id)","rev":7}"#
                    : #"{"type":"reject","id":"\#(id)","code":"unavailable","message":"the server cannot store actions right now; this dispatch was not applied"}"#
                try await connection.outbound.send(text: answer)
            default:
                break
            }
        }
    }
}
