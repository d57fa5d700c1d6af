import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WebSocket

@Suite(.timeLimit(.minutes(1)))
struct AsyncHTTPRouteTests {
    /// A handler that suspends for a while (its work, not a wait for an event).
    private static let slow = HTTPRoute(path: "/slow", asyncHandler: { head, _ in
        await Task.yield()
        do {
            try await Task.sleep(for: .milliseconds(40))
        } catch {
            return HTTPRouteResponse(status: .internalServerError, body: "cancelled\n")
        }
        return HTTPRouteResponse(status: .ok, body: "slow \(head.uri)\n")
    })

    @Test func anAsyncRouteAnswersAndPipelinedRequestsKeepTheirOrder() async throws {
        let fast = HTTPRoute(path: "/fast") { _, _ in HTTPRouteResponse(status: .ok, body: "fast\n") }
        try await withTestServer(routes: [], httpRoutes: [Self.slow, fast]) { _, port in
            let client = try await RawTCPClient(port: port)
            try await client.send(
                "GET /slow?n=1 HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /slow?n=2 HTTP/1.1\r\nHost: x\r\n\r\nGET /missing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let response = String(buffer: try await client.receiveUntilClosed())
            let bodies = ["slow /slow?n=1\n", "fast\n", "slow /slow?n=2\n", "no route for /missing"]
            let positions = bodies.map { response.range(of: $0)?.lowerBound }
            #expect(positions.allSatisfy { $0 != nil }, "every response arrived: \(response)")
            let found = positions.compactMap { $0 }
            #expect(found == found.sorted(), "in request order: \(response)")
        }
    }

    @Test func anAsyncRouteRefusesOtherMethodsWithoutRunning() async throws {
        try await withTestServer(routes: [], httpRoutes: [Self.slow]) { _, port in
            let client = try await RawTCPClient(port: port)
            try await client.send("POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            let response = String(buffer: try await client.receiveUntilClosed())
            #expect(response.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"))
            #expect(!response.contains("slow /slow"))
        }
    }
}
