import Synchronization
import TestProcessSupport
import Testing

/// `ReservedPort.starting`: a start that finds its port taken runs again on
/// another port, a bounded number of times; any other failure ends it.
@Suite struct ReservedPortStartingTests {
    @Test func aTakenPortIsTriedAgainUntilAStartSucceeds() async throws {
        let calls = Mutex(0)
        let port = try await ReservedPort.starting { port in
            let call = calls.withLock { $0 += 1; return $0 }
            if call < 3 { throw ReservedPort.Taken(description: "taken") }
            return port
        }
        #expect(calls.withLock { $0 } == 3)
        #expect(port > 0)
    }

    @Test func theLastTakenPortIsThrownAfterTheAttempts() async throws {
        let calls = Mutex(0)
        let error = await #expect(throws: ReservedPort.Taken.self) {
            try await ReservedPort.starting(attempts: 4) { port -> Int in
                calls.withLock { $0 += 1 }
                throw ReservedPort.Taken(description: "port \(port) taken")
            }
        }
        #expect(calls.withLock { $0 } == 4)
        #expect(error?.description.hasPrefix("port ") == true)
    }

    @Test func anotherFailureIsNotTriedAgain() async throws {
        struct Refused: Error {}
        let calls = Mutex(0)
        await #expect(throws: Refused.self) {
            try await ReservedPort.starting { _ -> Int in
                calls.withLock { $0 += 1 }
                throw Refused()
            }
        }
        #expect(calls.withLock { $0 } == 1)
    }
}
