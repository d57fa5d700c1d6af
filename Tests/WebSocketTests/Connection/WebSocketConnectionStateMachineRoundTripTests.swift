import NIOCore
import Testing
import WebSocket

/// A client and a server machine talking to each other: random messages,
/// fragment sizes, pings and chunkings, with and without compression; every
/// message arrives intact and in order.
@Suite(.timeLimit(.minutes(1))) struct WebSocketConnectionStateMachineRoundTripTests {
    private static let parameterSets: [PerMessageDeflateParameters?] = [
        nil,
        PerMessageDeflateParameters(),
        PerMessageDeflateParameters(serverNoContextTakeover: true, clientNoContextTakeover: true),
        PerMessageDeflateParameters(serverMaxWindowBits: 9, clientMaxWindowBits: 10),
    ]

    /// Sends `messages` through `sender`, feeds the bytes to `receiver` in random chunks.
    private func transfer(
        _ messages: [WebSocketMessage],
        from sender: inout WebSocketConnectionStateMachine,
        to receiver: inout WebSocketConnectionStateMachine,
        using generator: inout SeededGenerator
    ) throws -> [WebSocketMessage] {
        var wire = ByteBuffer()
        for message in messages {
            let fragmentSize = Bool.random(using: &generator) ? nil : Int.random(in: 1...300, using: &generator)
            var bytes = try sender.send(message, fragmentSize: fragmentSize)
            wire.writeBuffer(&bytes)
            if Int.random(in: 0..<4, using: &generator) == 0 {
                var ping = try sender.sendPing(ByteBuffer(string: "p"))
                wire.writeBuffer(&ping)
            }
        }
        var cumulation = ByteBuffer()
        var delivered: [WebSocketMessage] = []
        while wire.readableBytes > 0 {
            var chunk = wire.readSlice(length: min(wire.readableBytes, Int.random(in: 1...500, using: &generator)))!
            cumulation.writeBuffer(&chunk)
            while let action = receiver.read(from: &cumulation) {
                switch action {
                case .deliver(let message): delivered.append(message)
                case .write, .pong, .doNothing: break
                case .close(let close): Issue.record("unexpected close: \(String(describing: close.error))")
                }
            }
        }
        return delivered
    }

    @Test(arguments: 0..<parameterSets.count)
    func messagesArriveIntactBothWays(parameterIndex: Int) throws {
        let parameters = Self.parameterSets[parameterIndex]
        var generator = SeededGenerator(seed: UInt64(parameterIndex))
        var client = WebSocketConnectionStateMachine(role: .client, deflate: parameters)
        var server = WebSocketConnectionStateMachine(role: .server, deflate: parameters)
        let words = ["todo", "ü", "€", "𝄞", "{\"type\":\"patch\"}", " "]
        for _ in 0..<20 {
            let messages: [WebSocketMessage] = (0..<Int.random(in: 1...8, using: &generator)).map { _ in
                if Bool.random(using: &generator) {
                    let count = Int.random(in: 0...300, using: &generator)
                    return .text((0..<count).map { _ in words.randomElement(using: &generator)! }.joined())
                }
                let count = Int.random(in: 0...3000, using: &generator)
                return .binary(ByteBuffer(bytes: (0..<count).map { _ in UInt8.random(in: 0...3, using: &generator) }))
            }
            #expect(try transfer(messages, from: &client, to: &server, using: &generator) == messages)
            #expect(try transfer(messages, from: &server, to: &client, using: &generator) == messages)
        }
    }
}
