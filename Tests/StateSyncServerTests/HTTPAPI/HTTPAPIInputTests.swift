import StateSyncCore
import StateSyncTestSupport
import Testing

/// Input the HTTP API must refuse rather than read another way (found by
/// schemathesis against docs/openapi.yaml).
@Suite(.timeLimit(.minutes(1)))
struct HTTPAPIInputTests {
    @Test func anEmptyIdempotencyKeyIsRefusedNotSharedByEveryRequest() async throws {
        try await TestServer.with { server in
            for title in ["A", "B"] {
                let answer = try await Curl.post(
                    port: server.port, "/api/dispatch", #"{"type":"addTodo","title":"\#(title)"}"#, headers: ["Idempotency-Key;"])
                #expect(answer.status == 400)
                #expect(try answer.json["message"] == "header Idempotency-Key must not be empty")
            }
            #expect(try await Curl.run(port: server.port, "/api/state?path=/todos").json["value"] == [])
        }
    }

    @Test(arguments: ["/api/state?path=/a%FF", "/api/state?path=/%ZZ", "/api/watch?path=/a%FF", "/api/watch?path=/ok&path=/%ZZ"])
    func aPathThatIsNotUTF8IsRefusedNotReadAsTheWholeState(request: String) async throws {
        try await TestServer.with { server in
            let answer = try await Curl.run(port: server.port, request)
            #expect(answer.status == 400)
            #expect(try answer.json["code"] == "invalid_path")
        }
    }
}
