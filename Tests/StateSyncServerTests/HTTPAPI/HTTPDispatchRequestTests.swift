import NIOHTTP1
import StateSyncCore
@testable import StateSyncServer
import Testing

@Suite struct HTTPDispatchRequestTests {
    private static func read(_ body: String, headers: HTTPHeaders = [:]) throws(HTTPAPIError) -> HTTPDispatchRequest {
        try HTTPDispatchRequest(body: Array(body.utf8), headers: headers, limits: .init(), freshID: { "fresh" })
    }

    @Test func aBareActionHasNoPairAndAFreshID() throws {
        let request = try Self.read(#"{"type":"increment","counter":"hits"}"#)
        #expect(request.action == ["type": "increment", "counter": "hits"])
        #expect(request.clientID == nil)
        #expect(request.id == "fresh")
        #expect(request.name == "http")
    }

    @Test func anEnvelopeGivesThePairAndTheName() throws {
        let request = try Self.read(#"{"action":{"type":"postMessage","text":"hi"},"clientId":"billing","id":"b1","name":"cron"}"#)
        #expect(request.action == ["type": "postMessage", "text": "hi"])
        #expect(request.clientID == "billing")
        #expect(request.id == "b1")
        #expect(request.name == "cron")
    }

    @Test func anIdempotencyKeyIsTheIDOfThePairOfClientHTTP() throws {
        let request = try Self.read(#"{"type":"clearCompleted"}"#, headers: ["Idempotency-Key": "k-1"])
        #expect(request.clientID == "http")
        #expect(request.id == "k-1")
    }

    @Test(arguments: [
        (#"{"type":"x""#, "bad_json"),
        ("[1]", "bad_json"),
        (#"{"action":3}"#, "bad_request"),
        (#"{"action":{"type":"x"},"clientId":""}"#, "bad_request"),
        (#"{"action":{"type":"x"},"id":7}"#, "bad_request"),
    ])
    func whatIsNotAnActionSaysWhy(body: String, code: String) {
        #expect {
            _ = try Self.read(body)
        } throws: { error in
            (error as? HTTPAPIError)?.code == code && (error as? HTTPAPIError)?.status == .badRequest
        }
    }
}
