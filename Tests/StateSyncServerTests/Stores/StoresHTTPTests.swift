import Foundation
import StateSyncCore
import StateSyncProtocol
import StateSyncServer
import StateSyncTestSupport
import Testing
import TestProcessSupport

/// The HTTP API of many stores, with curl as a user runs it: the routes of
/// today under `/api/stores/NAME/`, the listing and the deletion.
@Suite(.timeLimit(.minutes(1)))
struct StoresHTTPTests {
    @Test func theAPIOfAStoreIsTheAPIOfTodayUnderItsName() async throws {
        try await TestServer.with { server in
            let port = server.port
            let dispatched = try await Curl.post(port: port, "/api/stores/team-a/dispatch", #"{"type":"increment","counter":"n","by":4}"#)
            #expect(dispatched.status == 200, "\(dispatched.body)")
            let state = try await Curl.run(port: port, "/api/stores/team-a/state?path=/counters/n")
            #expect(try state.json["value"] == 4)
            let etag = try #require(state.headers["etag"])
            let unchanged = try await Curl.run(port: port, "/api/stores/team-a/state?path=/counters/n", ["-H", "If-None-Match: \(etag)"])
            #expect(unchanged.status == 304)
            // main and other stores did not see it.
            #expect(try await Curl.run(port: port, "/api/state?path=/counters/n").json["value"] == nil as JSONValue)
            #expect(try await Curl.run(port: port, "/api/stores/team-b/state?path=/counters/n").json["value"] == nil as JSONValue)
            // A watch of the store streams its snapshot, then its changes only.
            let curl = try #require(Tools.tool("curl"))
            let watcher = try ServeProcess(["-s", "-N", "http://127.0.0.1:\(port)/api/stores/team-a/watch?path=/counters"], executable: curl)
            let snapshot = await watcher.waitForOutput { $0.contains("event: snapshot") && $0.hasSuffix("\n\n") }
            #expect(snapshot.contains(#""value":{"n":4}"#))
            _ = try await Curl.post(port: port, "/api/dispatch", #"{"type":"increment","counter":"n","by":100}"#)
            _ = try await Curl.post(port: port, "/api/stores/team-a/dispatch", #"{"type":"increment","counter":"n","by":1}"#)
            let patched = await watcher.waitForOutput { $0.contains("event: patch") && $0.hasSuffix("\n\n") }
            #expect(patched.contains(#""value":5"#))
            #expect(!patched.contains("104"), "main's change is not in team-a's stream")
            watcher.send(SIGKILL)
            _ = await watcher.waitForExit()
        }
    }

    @Test func aBadStoreNameIs400AndAReaderCannotCreateOne() async throws {
        var configuration = TestServer.configuration
        configuration.authentication = .tokens(["r": .reader, "w": .writer, "a": .admin])
        try await TestServer.with(configuration) { server in
            let bad = try await Curl.run(port: server.port, "/api/stores/Bad/state", ["-H", "Authorization: Bearer r"])
            #expect(bad.status == 400)
            #expect(try bad.json["code"] == "invalid_store")
            let refused = try await Curl.run(port: server.port, "/api/stores/new/state", ["-H", "Authorization: Bearer r"])
            #expect(refused.status == 403)
            #expect(try refused.json["message"] == #"store "new" does not exist and role reader may not create it"#)
        }
    }

    @Test func anAdminListsAndDeletesStoresAndOthersMayNot() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = TestServer.configuration
            configuration.storage = .directory(directory)
            configuration.authentication = .tokens(["w": .writer, "a": .admin])
            try await TestServer.with(configuration) { server in
                let port = server.port
                let admin = ["-H", "Authorization: Bearer a"]
                for store in ["b-store", "a-store"] {
                    let answer = try await Curl.post(port: port, "/api/stores/\(store)/dispatch", #"{"type":"increment","counter":"n"}"#,
                                                     headers: ["Authorization: Bearer w"])
                    #expect(answer.status == 200)
                }
                #expect(try await Curl.run(port: port, "/api/stores", ["-H", "Authorization: Bearer w"]).status == 403)
                let listed = try await Curl.run(port: port, "/api/stores", admin).json
                let names = listed["stores"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
                #expect(names == ["a-store", "b-store", "main"])
                let page = try await Curl.run(port: port, "/api/stores?limit=1&after=a-store", admin).json
                #expect(page["stores"]?.arrayValue?.first?["name"] == "b-store")
                #expect(page["next"] == "b-store")

                #expect(try await Curl.run(port: port, "/api/stores/main", ["-X", "DELETE"] + admin).status == 409)
                #expect(try await Curl.run(port: port, "/api/stores/none", ["-X", "DELETE"] + admin).status == 404)
                let deleted = try await Curl.run(port: port, "/api/stores/a-store", ["-X", "DELETE"] + admin)
                #expect(deleted.status == 200, "\(deleted.body)")
                let after = try await Curl.run(port: port, "/api/stores", admin).json
                #expect(after["stores"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["b-store", "main"])
                // Used again, it is a new, empty store.
                let fresh = try await Curl.run(port: port, "/api/stores/a-store/state?path=/counters/n", ["-H", "Authorization: Bearer w"])
                #expect(try fresh.json["value"] == nil as JSONValue)
            }
        }
    }

    @Test func aStoreWithASessionInItIsNotDeleted() async throws {
        try await TestServer.with { server in
            let client = try await ProtocolClient.joined(server.url)
            try await client.send(#"{"type":"subscribe","store":"busy","id":"s1","path":""}"#)
            _ = try await client.receive("snapshot")
            let refused = try await Curl.run(port: server.port, "/api/stores/busy", ["-X", "DELETE"])
            #expect(refused.status == 409)
            #expect(try refused.json["message"] == #"store "busy" has 1 session(s) in it; it can be deleted once they left"#)
            // The session goes on.
            try await client.send(#"{"type":"dispatch","store":"busy","id":"a1","action":{"type":"increment","counter":"n"}}"#)
            var answer = try await client.receive()
            while answer["type"] == "patch" { answer = try await client.receive() }   // its own join, then its action
            #expect(answer["type"] == "ack")
            #expect(answer["store"] == "busy")
        }
    }

    @Test func theListingCountsMainsSessionsAndTheBytesOfEachStoresFiles() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = TestServer.configuration
            configuration.storage = .directory(directory)
            try await TestServer.with(configuration) { server in
                let client = try await ProtocolClient.joined(server.url)
                try await client.send(#"{"type":"subscribe","id":"s1","path":""}"#)
                _ = try await client.receive("snapshot")
                #expect(try await Curl.post(port: server.port, "/api/stores/team-a/dispatch", #"{"type":"increment","counter":"n"}"#).status == 200)
                let listed = try await Curl.run(port: server.port, "/api/stores").json["stores"]?.arrayValue ?? []
                let main = try #require(listed.first { $0["name"] == "main" })
                let teamA = try #require(listed.first { $0["name"] == "team-a" })
                #expect(main["sessions"] == 1, "a WebSocket session in main: \(main)")
                #expect(teamA["sessions"] == 0)
                // team-a's rows in the stores' file (its join and one action), main's own files.
                let teamABytes = try #require(teamA["bytes"]?.intValue, "\(teamA)")
                #expect(teamABytes > 0 && teamABytes < 10_000, "\(teamA)")
                let mainBytes = try #require(main["bytes"]?.intValue)
                let storesFiles = ["stores.sqlite", "stores.sqlite-wal", "stores.sqlite-shm"].reduce(0) { $0 + Self.fileBytes(of: directory + "/" + $1) }
                #expect(mainBytes > 0 && mainBytes <= Self.fileBytes(in: directory) - storesFiles, "main's files only")
                try await client.close()
                #expect(try await eventually {
                    let again = try await Curl.run(port: server.port, "/api/stores?limit=1").json["stores"]?[0]
                    return again?["sessions"] == 0
                })
            }
        }
    }

    /// The sum of the sizes of the regular files directly in `path`.
    private static func fileBytes(in path: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.reduce(0) { total, name in total + fileBytes(of: "\(path)/\(name)") }
    }

    /// The size of the regular file `path` (0 when it is none).
    private static func fileBytes(of path: String) -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard attributes?[.type] as? FileAttributeType == .typeRegular else { return 0 }
        return (attributes?[.size] as? NSNumber)?.intValue ?? 0
    }
}
