import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// The HTTP API of the real `statesync serve`, driven by curl as docs/http-api.md shows it.
@Suite(.timeLimit(.minutes(1)))
struct HTTPAPIProcessTests {


    @Test func dispatchAnswersTheDurableRevisionOrTheRejection() async throws {
        let (server, port) = try await ServeProcess.serving()
        let added = try await Curl.post(port: port, "/api/dispatch", #"{"type":"addTodo","title":"Milk"}"#)
        #expect(added.status == 200)
        let rev = try #require(try added.json["rev"]?.intValue)
        let state = try await Curl.run(port: port, "/api/state?path=/todos")
        #expect(try state.json["value"]?[0]?["title"] == "Milk")
        #expect(try #require(try state.json["rev"]?.intValue) >= rev)

        let envelope = try await Curl.post(port: port, "/api/dispatch", #"{"action":{"type":"postMessage","text":"from cron"},"name":"cron"}"#)
        #expect(envelope.status == 200)
        let chat = try await Curl.run(port: port, "/api/state?path=/chat/0")
        #expect(try chat.json["value"]?["from"] == "cron")

        let missing = try await Curl.post(port: port, "/api/dispatch", #"{"type":"toggleTodo","id":"nope"}"#)
        #expect(missing.status == 409)
        #expect(try missing.json == ["code": "not_found", "message": "no todo with id nope"])
        let invalid = try await Curl.post(port: port, "/api/dispatch", #"{"type":"addTodo","title":""}"#)
        #expect(invalid.status == 422)
        #expect(try invalid.json["code"] == "invalid_action")
        let badJSON = try await Curl.post(port: port, "/api/dispatch", #"{"type":"addTodo","title":}"#)
        #expect(badJSON.status == 400)
        #expect(try badJSON.json["code"] == "bad_json")
        #expect(try badJSON.json["message"]?.stringValue?.contains("at byte 26") == true, "\(badJSON.body)")
        let notAnAction = try await Curl.post(port: port, "/api/dispatch", "[1,2]")
        #expect(notAnAction.status == 400)
        let get = try await Curl.run(port: port, "/api/dispatch")
        #expect(get.status == 405)
        await server.stop()
    }

    @Test func anIdempotencyKeyAppliesTheActionOnce() async throws {
        let (server, port) = try await ServeProcess.serving()
        let increment = #"{"type":"increment","counter":"paid","by":100}"#
        let first = try await Curl.post(port: port, "/api/dispatch", increment, headers: ["Idempotency-Key: invoice-42"])
        let again = try await Curl.post(port: port, "/api/dispatch", increment, headers: ["Idempotency-Key: invoice-42"])
        #expect(first.status == 200 && again.status == 200)
        #expect(try first.json == again.json)
        let other = try await Curl.post(port: port, "/api/dispatch", increment, headers: ["Idempotency-Key: invoice-43"])
        #expect(other.status == 200)
        #expect(try await Curl.run(port: port, "/api/state?path=/counters/paid").json["value"] == 200)
        // The envelope's pair works the same.
        let envelope = #"{"action":{"type":"increment","counter":"paid"},"clientId":"billing","id":"b1"}"#
        _ = try await Curl.post(port: port, "/api/dispatch", envelope)
        _ = try await Curl.post(port: port, "/api/dispatch", envelope)
        #expect(try await Curl.run(port: port, "/api/state?path=/counters/paid").json["value"] == 201)
        await server.stop()
    }

    @Test func stateCarriesItsRevisionAsAnETagAndAnswers304WhenUnchanged() async throws {
        let (server, port) = try await ServeProcess.serving()
        _ = try await Curl.post(port: port, "/api/dispatch", #"{"type":"increment","counter":"hits"}"#)
        let first = try await Curl.run(port: port, "/api/state?path=/counters")
        let etag = try #require(first.headers["etag"])
        #expect(etag == "\"\(try #require(try first.json["rev"]?.intValue))\"")
        let unchanged = try await Curl.run(port: port, "/api/state?path=/counters", ["-H", "If-None-Match: \(etag)"])
        #expect(unchanged.status == 304)
        #expect(unchanged.body.isEmpty)
        _ = try await Curl.post(port: port, "/api/dispatch", #"{"type":"increment","counter":"hits"}"#)
        let changed = try await Curl.run(port: port, "/api/state?path=/counters", ["-H", "If-None-Match: \(etag)"])
        #expect(changed.status == 200)
        #expect(try changed.json["value"] == ["hits": 2])
        let badPath = try await Curl.run(port: port, "/api/state?path=todos")
        #expect(badPath.status == 400)
        #expect(try badPath.json["code"] == "invalid_path")
        await server.stop()
    }

    @Test func tokensRolesAndReadRestrictionsApplyAsOnTheWebSocket() async throws {
        let (server, port) = try await ServeProcess.serving([
            "--token", "s3cret=admin", "--token", "viewer=reader", "--restrict-read", "/presence=admin",
        ])
        let action = #"{"type":"increment","counter":"hits"}"#
        let anonymous = try await Curl.post(port: port, "/api/dispatch", action)
        #expect(anonymous.status == 401)
        #expect(anonymous.headers["www-authenticate"] == "Bearer")
        #expect(try anonymous.json["code"] == "unauthorized")
        let wrong = try await Curl.post(port: port, "/api/dispatch", action, headers: ["Authorization: Bearer nope"])
        #expect(wrong.status == 401)
        let reader = try await Curl.post(port: port, "/api/dispatch", action, headers: ["Authorization: Bearer viewer"])
        #expect(reader.status == 403)
        #expect(try reader.json["code"] == "forbidden")
        let admin = try await Curl.post(port: port, "/api/dispatch", action, headers: ["Authorization: Bearer s3cret"])
        #expect(admin.status == 200)
        let hidden = try await Curl.run(port: port, "/api/state?path=/presence", ["-H", "Authorization: Bearer viewer"])
        #expect(hidden.status == 403)
        let read = try await Curl.run(port: port, "/api/state?path=/counters/hits", ["-H", "Authorization: Bearer viewer"])
        #expect(try read.json["value"] == 1)
        await server.stop()
    }

    @Test func watchStreamsASnapshotThenPatchesAndResumesFromLastEventID() async throws {
        let (server, port) = try await ServeProcess.serving()
        let curl = try #require(Tools.tool("curl"))
        let url = "http://127.0.0.1:\(port)/api/watch?path=/counters&path=/todos"
        let watcher = try ServeProcess(["-s", "-N", url], executable: curl)
        let start = await watcher.waitForOutput { $0.components(separatedBy: "event: snapshot").count == 3 }
        #expect(start.contains(#""path":"/counters""#) && start.contains(#""path":"/todos""#))
        _ = try await Curl.post(port: port, "/api/dispatch", #"{"type":"increment","counter":"hits"}"#)
        let patched = await watcher.waitForOutput { $0.contains("event: patch") }
        let patch = try #require(Self.events(patched).last)
        #expect(patch.event == "patch")
        #expect(patch.data["path"] == "/counters")
        #expect(patch.data["ops"] == [["op": "add", "path": "/hits", "value": 1]])
        #expect(patch.id == patch.data["rev"]?.intValue.map(String.init))
        // SIGKILL: a child of Foundation's Process inherits a mask that blocks SIGTERM.
        watcher.send(SIGKILL)
        _ = await watcher.waitForExit()

        // Missed while away: one patch from the last event's revision, no snapshot.
        _ = try await Curl.post(port: port, "/api/dispatch", #"{"type":"increment","counter":"hits","by":5}"#)
        let resumed = try ServeProcess(["-s", "-N", "-H", "Last-Event-ID: \(patch.id ?? "")", url], executable: curl)
        let caughtUp = await resumed.waitForOutput { $0.contains("event: patch") }
        let events = Self.events(caughtUp)
        #expect(!events.contains { $0.event == "snapshot" })
        let counters = try #require(events.first { $0.data["path"] == "/counters" })
        #expect(counters.data["base"]?.intValue.map(String.init) == patch.id)
        #expect(counters.data["ops"] == [["op": "replace", "path": "/hits", "value": 6]])
        resumed.send(SIGKILL)
        _ = await resumed.waitForExit()
        await server.stop()
    }

    /// The events of a text/event-stream body.
    private static func events(_ stream: String) -> [(event: String, id: String?, data: JSONValue)] {
        stream.components(separatedBy: "\n\n").compactMap { block in
            var event = "message"
            var id: String?
            var data: JSONValue?
            for line in block.split(separator: "\n") {
                if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
                if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
                if line.hasPrefix("data: ") { data = try? JSONParser().parse(String(line.dropFirst(6))) }
            }
            return data.map { (event, id, $0) }
        }
    }
}
