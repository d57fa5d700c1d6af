import Logging
import StateSyncCore
import StateSyncJournal
import StateSyncServer
import StateSyncTestSupport
import Synchronization
import Testing

/// A server on an application's ``StoreJournals`` (`StateSyncStorage.journals`):
/// every store gets a journal of it, the listing and deletion go through
/// it, and it is closed once, after every store's journal.
@Suite(.timeLimit(.minutes(1)))
struct StoreJournalsStorageTests {
    @Test func everyStoreHasAJournalOfTheApplicationsAndTheyCloseFirst() async throws {
        let journals = MemoryStoreJournals()
        var configuration = TestServer.configuration
        configuration.storage = .journals("memory per store") { _ in journals }
        try await TestServer.with(configuration) { server in
            let client = try await ProtocolClient.joined(server.url)
            for store in ["b", "a"] {
                try await client.send(#"{"type":"dispatch","store":"\#(store)","id":"x","action":{"type":"increment","counter":"n"}}"#)
                #expect(try await client.receive("ack")["store"] == .string(store))
            }
            try await client.close()
            let listed = try await Curl.run(port: server.port, "/api/stores").json
            #expect(listed["stores"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["a", "b", "main"])
            var deleted = try await Curl.run(port: server.port, "/api/stores/a", ["-X", "DELETE"])
            let deadline = ContinuousClock.now + .seconds(30)
            while deleted.status == 409, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))   // the session leaves once its connection's close is read
                deleted = try await Curl.run(port: server.port, "/api/stores/a", ["-X", "DELETE"])
            }
            #expect(deleted.status == 200, "\(deleted.body)")
            #expect(!journals.exists("a"))
        }
        #expect(journals.events == ["open main", "open b", "open a", "remove a", "close"])
        #expect(journals.closedWithJournalsOpen == false)
    }
}

/// A ``StoreJournals`` of memory journals that records what the server asks of it.
private final class MemoryStoreJournals: StoreJournals {
    private struct State {
        var journals: [String: MemoryJournal] = [:]
        var events: [String] = []
        var closedWithJournalsOpen: Bool?
    }

    private let state = Mutex(State())

    var events: [String] { state.withLock { $0.events } }
    var closedWithJournalsOpen: Bool? { state.withLock { $0.closedWithJournalsOpen } }

    func open(_ store: String, logger: Logger, writeFailed: @escaping @Sendable () -> Void) async throws -> any Journal {
        state.withLock { state in
            state.events.append("open \(store)")
            if let journal = state.journals[store] { return journal }
            let journal = MemoryJournal()
            state.journals[store] = journal
            return journal
        }
    }

    func exists(_ store: String) -> Bool {
        state.withLock { $0.journals[store] != nil }
    }

    func names() -> [String] {
        state.withLock { Array($0.journals.keys) }
    }

    func remove(_ store: String) async throws {
        state.withLock { state in
            state.events.append("remove \(store)")
            state.journals[store] = nil
        }
    }

    func close() async throws {
        var open = false
        for journal in state.withLock({ Array($0.journals.values) }) {
            // A closed MemoryJournal refuses every read.
            if (try? await journal.snapshotRevisions()) != nil { open = true }
        }
        state.withLock { state in
            state.events.append("close")
            state.closedWithJournalsOpen = open
        }
    }
}
