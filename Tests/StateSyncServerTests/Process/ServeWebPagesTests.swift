import Foundation
import Testing
import StateSyncTestSupport

/// The real `statesync serve` binary serves the web files of clients/js from
/// its resource bundle: the board page at `/` and `/board`, the client and the devtools.
@Suite(.timeLimit(.minutes(1)))
struct ServeWebPagesTests {
    @Test func theBinaryServesTheBoardPageTheClientAndTheDevtools() async throws {
        let process = try ServeProcess(["serve", "--memory", "--port", "0", "--token", "s3cret=admin"])
        let port = try #require(try await process.waitForPort(), "no URL printed: \(process.standardError)")
        let pages = [
            "/": "<title>StateSync board</title>", "/board": "<title>StateSync board</title>",
            "/statesync.js": "export class StateSyncClient", "/devtools": "<title>StateSync devtools</title>",
            "/devtools.js": "/devtools/api/journal",
        ]
        for (path, marker) in pages {
            let (status, body) = try await HTTPGet.get(port: port, path: path)
            #expect(status == 200, "\(path)")
            #expect(body.contains(marker), "\(path)")
        }
        #expect(try await HTTPGet.get(port: port, path: "/devtools/api/state").status == 401)
        let admin = try await HTTPGet.get(port: port, path: "/devtools/api/state", headers: "Authorization: Bearer s3cret\r\n")
        #expect(admin.status == 200 && admin.body.contains("\"todos\":[]"))
        process.send(SIGTERM)
        #expect(await process.waitForExit() == 0)
    }
}
