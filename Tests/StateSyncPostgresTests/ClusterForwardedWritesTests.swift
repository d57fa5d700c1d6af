import BoardApp
import Foundation
import NIOCore
import NIOHTTP1
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing
import WebSocket

/// The writer's end of the links between nodes (`/cluster`), against a
/// real `statesync serve --postgres` node: the test plays the node that
/// forwards its sessions' dispatches, with the cluster's secret read from
/// PostgreSQL as a node reads it.
@Suite(.timeLimit(.minutes(2)))
struct ClusterForwardedWritesTests {
    @Test func aForwardedDispatchIsAppliedOnceAsTheSendersSessionAndAnsweredWhenDurable() async throws {
        try await TestPostgres.with { postgres in
            let node = try await ClusterNode.start(postgres)
            let secret = try #require(try await PostgresQueries.text("SELECT secret FROM statesync_cluster", on: postgres))
            #expect(secret.count == 64)
            let link = try await Self.link(port: node.port, secret: secret)
            try await Self.send(link, forward: "a1", session: "n-other-s-1", store: "main")
            let first = try await Self.answer(on: link)
            #expect(first["session"] == "n-other-s-1")
            #expect(first["store"] == "main")
            #expect(first["answer"]?["type"] == "ack", "\(first)")
            let rev = try #require(first["answer"]?["rev"]?.int64Value)
            // Forwarded again (the link dropped before the answer, say): the first outcome, not a second action.
            try await Self.send(link, forward: "a1", session: "n-other-s-1", store: "main")
            let again = try await Self.answer(on: link)
            #expect(again["answer"]?["type"] == "ack")
            #expect(again["answer"]?["rev"]?.int64Value == rev)
            // Another store opens for it; the sender's clientId keys the stored action.
            try await Self.send(link, forward: "a2", session: "n-other-s-1", store: "team")
            #expect(try await Self.answer(on: link)["answer"]?["type"] == "ack")
            #expect(try await PostgresQueries.texts(
                "SELECT client_id || ' ' || action_id FROM statesync_journal WHERE store_id = 'store:team' AND action_id IS NOT NULL",
                on: postgres) == ["c-remote a2"])
            // The sender's role holds here too.
            try await Self.send(link, forward: "a3", session: "n-other-s-2", store: "main", role: "reader")
            let refused = try await Self.answer(on: link)
            #expect(refused["answer"]?["type"] == "reject")
            #expect(refused["answer"]?["code"] == "forbidden")
            let state = try await node.stateBody()
            #expect(state.contains(#""n":1"#), "applied once: \(state)")
            try await link.connection.outbound.close()
            await node.process.stop()
        }
    }

    /// A rolling upgrade: the writer (the board) cannot read an action of a
    /// newer version, so it refuses it unapplied and the sending node writes
    /// it; one of its own version, or an older one, is applied as before.
    @Test func aForwardOfANewerSchemaVersionIsRefusedUnappliedSoThatTheSenderWritesIt() async throws {
        try await TestPostgres.with { postgres in
            let node = try await ClusterNode.start(postgres)
            let secret = try #require(try await PostgresQueries.text("SELECT secret FROM statesync_cluster", on: postgres))
            let link = try await Self.link(port: node.port, secret: secret)
            try await Self.send(link, forward: "newer", session: "n-new-s-1", store: "main", schemaVersion: Board.schemaVersion + 1)
            let refused = try await Self.answer(on: link)
            #expect(refused["answer"]?["type"] == "reject")
            #expect(refused["answer"]?["code"] == "schema_too_new", "\(refused)")
            #expect(refused["answer"]?["message"]?.stringValue?.contains("the sending node writes it") == true, "\(refused)")
            try await Self.send(link, forward: "current", session: "n-new-s-1", store: "main", schemaVersion: Board.schemaVersion)
            #expect(try await Self.answer(on: link)["answer"]?["type"] == "ack")
            try await Self.send(link, forward: "v1", session: "n-new-s-1", store: "main", schemaVersion: 1)
            #expect(try await Self.answer(on: link)["answer"]?["type"] == "ack")
            // A node of a build before versions names none: version 1, applied.
            try await Self.send(link, forward: "unversioned", session: "n-new-s-1", store: "main")
            #expect(try await Self.answer(on: link)["answer"]?["type"] == "ack")
            #expect(try await PostgresQueries.texts(
                "SELECT action_id FROM statesync_journal WHERE action_id IS NOT NULL ORDER BY revision", on: postgres)
                == ["current", "v1", "unversioned"], "the newer one was not applied")
            try await link.connection.outbound.close()
            await node.process.stop()
        }
    }

    /// A writer of the board's next version (in process, ``BoardNext``,
    /// which calls the board's `addTask` `addTodo`) upcasts what an older
    /// node forwards: one naming the board's version, and one naming none (a
    /// node of a build before versions: version 1, upcast through every step).
    @Test func aNewerWriterUpcastsWhatAnOlderNodeForwardsNamedOrNot() async throws {
        try await TestPostgres.with { postgres in
            let configuration = try ClusterSchemaVersionTests.configuration(postgres, forwarding: true)
            try await TestServer.with(configuration, app: BoardNext.self) { node in
                let secret = try #require(try await PostgresQueries.text("SELECT secret FROM statesync_cluster", on: postgres))
                let link = try await Self.link(port: node.port, secret: secret)
                try await Self.send(link, forward: "named", session: "n-old-s-1", store: "main", schemaVersion: Board.schemaVersion,
                                    action: ["type": "addTask", "title": "Milk"])
                #expect(try await Self.answer(on: link)["answer"]?["type"] == "ack")
                try await Self.send(link, forward: "unnamed", session: "n-old-s-1", store: "main",
                                    action: ["type": "addTask", "title": "Bread"])
                #expect(try await Self.answer(on: link)["answer"]?["type"] == "ack")
                let todos = try await HTTPGet.get(port: node.port, path: "/api/state?path=/todos").body
                #expect(todos.contains("Milk") && todos.contains("Bread"), "\(todos)")
                try await link.connection.outbound.close()
            }
        }
    }

    @Test func aLinkWithoutTheClusterSecretIsRefusedBeforeTheUpgrade() async throws {
        try await TestPostgres.with { postgres in
            let node = try await ClusterNode.start(postgres)
            for secret in [nil, "not-the-secret"] as [String?] {
                await #expect(throws: (any Error).self, "secret \(secret ?? "none")") {
                    _ = try await Self.link(port: node.port, secret: secret)
                }
            }
            await node.process.stop()
        }
    }

    /// A link to `node`'s `/cluster`, with `secret` as its bearer token.
    private static func link(port: Int, secret: String?) async throws -> Link {
        var headers = HTTPHeaders()
        if let secret { headers.add(name: "Authorization", value: "Bearer \(secret)") }
        return Link(try await WebSocketClient.connect(
            url: "ws://127.0.0.1:\(port)/cluster", subprotocols: ["statesync-cluster.v1"], headers: headers))
    }

    /// Forwards `action` (default `increment n`) with action id `id` from `session` (clientId `c-remote`).
    private static func send(
        _ link: Link, forward id: String, session: String, store: String, role: String = "writer", schemaVersion: Int? = nil,
        action: JSONObject = ["type": "increment", "counter": "n"]
    ) async throws {
        var message: JSONObject = [
            "type": "forward", "store": .string(store), "session": .string(session), "name": "remote", "clientId": "c-remote",
            "role": .string(role), "id": .string(id), "action": .object(action),
        ]
        if let schemaVersion { message["schemaVersion"] = .integer(Int64(schemaVersion)) }
        try await link.connection.outbound.send(text: JSONSerializer().string(for: .object(message)))
    }

    /// The next message on `link`, parsed.
    private static func answer(on link: Link) async throws -> JSONValue {
        let message = try #require(await link.next(), "the link closed")
        return try JSONParser().parse(Array(message.data.readableBytesView))
    }
}

/// A link's connection and the one reader of its messages.
private final class Link {
    let connection: WebSocketConnection
    private var iterator: WebSocketInboundMessages.AsyncIterator

    init(_ connection: WebSocketConnection) {
        self.connection = connection
        iterator = connection.inbound.makeAsyncIterator()
    }

    /// The next message, `nil` once the link closed.
    func next() async -> WebSocketMessage? {
        await iterator.next()
    }
}
