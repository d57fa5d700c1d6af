import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WebSocket

@Suite(.timeLimit(.minutes(1)))
struct StreamedHTTPRouteTests {
    @Test func aStreamedResponseIsSentInChunksThenTheConnectionCloses() async throws {
        let route = HTTPRoute(path: "/events", streamHandler: { request, stream in
            stream.start(status: .ok, headers: ["Content-Type": "text/event-stream"])
            for name in request.queryValues("name") {
                stream.write(ByteBuffer(string: "data: \(name)\n\n"))
            }
            stream.finish()
        })
        try await withTestServer(routes: [], httpRoutes: [route]) { _, port in
            let client = try await RawTCPClient(port: port)
            // Pipelined requests behind a stream are not answered: the connection closes after it.
            try await client.send("GET /events?name=a%20b&name=c+d&other=x HTTP/1.1\r\nHost: x\r\n\r\nGET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = String(buffer: try await client.receiveUntilClosed())
            #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(response.lowercased().contains("transfer-encoding: chunked"))
            #expect(response.contains("connection: close") || response.contains("Connection: close"))
            #expect(!response.contains("content-length"))
            #expect(response.contains("data: a b\n\n") && response.contains("data: c d\n\n"))
            #expect(response.components(separatedBy: "HTTP/1.1 ").count == 2)
        }
    }

    @Test func aRequestHandlerSeesThePeersAddress() async throws {
        let route = HTTPRoute(path: "/who", requestHandler: { request in
            HTTPRouteResponse(status: .ok, body: request.remoteAddress?.ipAddress ?? "unknown")
        })
        try await withTestServer(routes: [], httpRoutes: [route]) { _, port in
            let client = try await RawTCPClient(port: port)
            try await client.send("GET /who HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(String(buffer: try await client.receiveUntilClosed()).hasSuffix("\r\n\r\n127.0.0.1"))
        }
    }

    @Test(arguments: [
        ("/p?path=/todos&path=%2Fcounters", "path", ["/todos", "/counters"]),
        ("/p?q=a+b%21&q=", "q", ["a b!", ""]),
        ("/p?bad=%zz&bad=ok", "bad", ["ok"]),
        ("/p", "path", []),
    ])
    func queryValuesArePercentDecoded(uri: String, name: String, values: [String]) {
        let request = HTTPRouteRequest(head: HTTPRequestHead(version: .http1_1, method: .GET, uri: uri), body: ByteBuffer(), remoteAddress: nil)
        #expect(request.queryValues(name) == values)
    }
}
