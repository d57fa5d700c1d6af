import BoardApp
import Foundation
import StateSyncCore
import StateSyncProtocol
import StateSyncServer
import StateSyncTestSupport
import Testing

@testable import StateSyncClient

/// The Swift client declares its app schema version: a server that needs a
/// newer one stops it with `upgrade_required`, and actions an older build
/// left in the outbox are sent with their version and upcast by the server,
/// applied once. The server is the board at version 2; the older build is
/// one of the board's version 1 (whose `say` version 2 calls `postMessage`).
@Suite(.timeLimit(.minutes(1)))
struct ClientSchemaVersionEndToEndTests {
    @Test func anOutboxAnOlderBuildLeftIsUpcastAndAppliedOnce() async throws {
        let outbox = OutboxEndToEndTests.outboxURL()
        defer { try? FileManager.default.removeItem(at: outbox) }   // a test file: gone already is fine
        try OutboxFile(url: outbox).save(OutboxFile.Contents(clientID: "c-upgraded", dispatches: [
            OutboxFile.Entry(id: "v1-a1", action: ["type": "say", "text": "left offline"], schemaVersion: 1),
        ]))
        try await TestServer.with(app: Board.self) { server in
            var configuration = ClientFixtures.configuration(server.url)
            configuration.outbox = .file(outbox)
            configuration.schemaVersion = Board.schemaVersion
            let client = StateSyncClient(configuration: configuration)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await client.run() }
                try await client.waitUntilOnline()
                #expect(try await eventually { try OutboxFile(url: outbox).load()?.dispatches.isEmpty == true })
                // A dispatch of this build is of its own version and needs no upcast.
                try await client.dispatch(BoardAction.addTodo(title: "Bread"))
                await client.close()
                try await group.waitForAll()
            }
            let chat = try await HTTPGet.get(port: server.port, path: "/api/state?path=/chat").body
            #expect(chat.components(separatedBy: "left offline").count == 2, "applied once: \(chat)")
            let todos = try await HTTPGet.get(port: server.port, path: "/api/state?path=/todos").body
            #expect(todos.contains(#""priority":"normal""#) && todos.contains("Bread"), "\(todos)")
        }
    }

    @Test func aServerThatNeedsANewerBuildStopsTheClientNamingBothVersions() async throws {
        try await TestServer.with(app: Board.self) { server in
            var configuration = ClientFixtures.configuration(server.url)
            configuration.schemaVersion = 1
            let client = StateSyncClient(configuration: configuration)
            let error = await #expect(throws: StateSyncClientError.self) { try await client.run() }
            #expect(error?.code == .upgradeRequired)
            #expect(error?.isFatal == true)
            #expect("\(error.map(String.init(describing:)) ?? "")".contains("this server accepts version 2"))
        }
    }
}
