import Foundation
import NIOCore
import ProcessSpawning
import Testing
import WebSocket

/// Our client against a server written elsewhere: Python `websockets`.
@Suite(.timeLimit(.minutes(1))) struct WebSocketClientInteropTests {
    static let pythonServer = """
        import asyncio, sys
        from websockets.asyncio.server import serve
        async def echo(ws):
            async for message in ws:
                await ws.send(message)
        async def main(compression):
            async with serve(echo, "127.0.0.1", 0, compression=compression, max_size=None) as server:
                print(server.sockets[0].getsockname()[1], flush=True)
                await asyncio.sleep(30)
        asyncio.run(main(None if sys.argv[1] == "off" else "deflate"))
        """

    @Test(arguments: [true, false])
    func echoAgainstPythonWebsocketsServer(compression: Bool) async throws {
        let python = try await ExternalProcess.pythonWithWebsockets()
        let (process, portLine) = try await ExternalProcess.start(
            python, ["-c", Self.pythonServer, compression ? "deflate" : "off"])
        defer { process.send(SIGTERM) }
        let port = try #require(Int(portLine), "python server printed \"\(portLine)\" instead of its port")
        let configuration = WebSocketConfiguration(compression: compression ? .init() : nil)
        let connection = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/", configuration: configuration)
        let big = String(repeating: "deflate me ", count: 10_000)
        try await connection.outbound.send(text: "héllo")
        try await connection.outbound.send(binary: ByteBuffer(bytes: Array(0...255)))
        try await connection.outbound.send(text: big)
        var iterator = connection.inbound.makeAsyncIterator()
        #expect(await iterator.next() == .text("héllo"))
        #expect(await iterator.next() == .binary(ByteBuffer(bytes: Array(0...255))))
        #expect(await iterator.next()?.text == big)
        try await connection.outbound.close(code: .normalClosure, reason: "bye")
        #expect(await iterator.next() == nil)
        #expect(connection.closeStatus?.code == .normalClosure)
    }
}
