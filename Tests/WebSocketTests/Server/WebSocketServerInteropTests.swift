import Foundation
import Testing
import WebSocket

/// Our server against clients written elsewhere: Python `websockets` and
/// Node's built-in `WebSocket`, with and without permessage-deflate.
@Suite(.timeLimit(.minutes(1))) struct WebSocketServerInteropTests {
    static let pythonClient = """
        import asyncio, json, sys
        from websockets.asyncio.client import connect
        async def main(url, compression):
            async with connect(url, compression=compression, max_size=None) as ws:
                await ws.send("héllo")
                text = await ws.recv()
                await ws.send(bytes(range(256)) * 40)
                binary = await ws.recv()
                big = "z" * 100000
                await ws.send(big)
                echoed = await ws.recv()
                ext = ws.response.headers.get("Sec-WebSocket-Extensions")
                print(json.dumps({"text": text, "binary": binary == bytes(range(256)) * 40,
                                  "big": echoed == big, "extensions": ext}))
        asyncio.run(main(sys.argv[1], None if sys.argv[2] == "off" else "deflate"))
        """

    static let nodeClient = """
        const ws = new WebSocket(process.argv[1]);
        ws.binaryType = "arraybuffer";
        const got = [];
        ws.onopen = () => { ws.send("héllo"); ws.send(new Uint8Array([1, 2, 3])); };
        ws.onmessage = (event) => {
          got.push(typeof event.data === "string" ? event.data : Array.from(new Uint8Array(event.data)).join(","));
          if (got.length === 2) ws.close(1000, "done");
        };
        ws.onclose = (event) => { console.log(JSON.stringify({ got, code: event.code, extensions: ws.extensions })); };
        ws.onerror = (event) => { console.error("error", event.message); process.exit(1); };
        """

    struct PythonResult: Decodable {
        let text: String
        let binary: Bool
        let big: Bool
        let extensions: String?
    }

    struct NodeResult: Decodable {
        let got: [String]
        let code: Int
        let extensions: String
    }

    static func route(compression: Bool) -> WebSocketRoute {
        echoRoute(configuration: WebSocketConfiguration(compression: compression ? .init() : nil))
    }

    @Test(arguments: [(true, "deflate"), (true, "off"), (false, "deflate")])
    func pythonWebsocketsClient(serverCompression: Bool, clientCompression: String) async throws {
        let python = try await ExternalProcess.pythonWithWebsockets()
        try await withTestServer(routes: [Self.route(compression: serverCompression)]) { _, port in
            let output = try await ExternalProcess.run(
                python, ["-c", Self.pythonClient, "ws://127.0.0.1:\(port)/echo", clientCompression])
            #expect(output.status == 0, "python client failed: \(output.stderr)")
            let result = try JSONDecoder().decode(PythonResult.self, from: Data(output.stdout.utf8))
            #expect(result.text == "héllo")
            #expect(result.binary)
            #expect(result.big)
            let negotiated = serverCompression && clientCompression == "deflate"
            #expect((result.extensions?.hasPrefix("permessage-deflate") ?? false) == negotiated)
        }
    }

    @Test(arguments: [true, false])
    func nodeBuiltInWebSocket(serverCompression: Bool) async throws {
        let (node, flags) = try await ExternalProcess.nodeWithWebSocket()
        try await withTestServer(routes: [Self.route(compression: serverCompression)]) { _, port in
            let output = try await ExternalProcess.run(
                node, flags + ["-e", Self.nodeClient, "ws://127.0.0.1:\(port)/echo"])
            #expect(output.status == 0, "node client failed: \(output.stderr)")
            let result = try JSONDecoder().decode(NodeResult.self, from: Data(output.stdout.utf8))
            #expect(result.got == ["héllo", "1,2,3"])
            #expect(result.code == 1000)
            if !serverCompression { #expect(result.extensions == "") }
        }
    }
}
