import Foundation
import StateSyncCore
import StateSyncProtocol
import Testing

@testable import StateSyncClient

/// The outbox file names the store of each dispatch other than `main`'s.
@Suite struct OutboxFileTests {
    private static func file() -> OutboxFile {
        OutboxFile(url: FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString).json"))
    }

    @Test func dispatchesOfSeveralStoresSurviveASaveAndALoad() throws {
        let file = Self.file()
        defer { try? FileManager.default.removeItem(at: file.url) }   // best-effort cleanup of a temp file
        let contents = OutboxFile.Contents(clientID: "c-1", dispatches: [
            OutboxFile.Entry(id: "a1", action: ["type": "postMessage", "text": "main"]),
            OutboxFile.Entry(id: "a2", action: ["type": "postMessage", "text": "team"], store: try StoreName("team-42")),
        ])
        try file.save(contents)
        #expect(try file.load() == contents)
        let text = try String(contentsOf: file.url, encoding: .utf8)
        #expect(text.contains(#""store":"team-42""#))
        #expect(text.components(separatedBy: #""store""#).count == 2, "main's dispatch names no store: \(text)")
    }

    @Test func aFileNamingABadStoreIsRefused() throws {
        let file = Self.file()
        defer { try? FileManager.default.removeItem(at: file.url) }   // best-effort cleanup of a temp file
        try Data(#"{"clientID":"c-1","dispatches":[{"id":"a1","store":"Bad Name","action":{"type":"postMessage"}}]}"#.utf8).write(to: file.url)
        let error = #expect(throws: StateSyncClientError.self) { try file.load() }
        #expect(error?.description.contains("a dispatch's store is not a store name") == true)
    }
}
