@testable import StateSyncServer
import Testing

@Suite(.timeLimit(.minutes(1))) struct DevtoolsRequestLimitTests {
    @Test func placesAreTakenUpToTheMaximumAndGivenBack() {
        let limit = DevtoolsRequestLimit(maximum: 2)
        #expect(limit.acquire())
        #expect(limit.acquire())
        #expect(!limit.acquire())
        limit.release()
        #expect(limit.acquire())
        #expect(!limit.acquire())
    }

    @Test func theMaximumIsAtLeastOne() {
        let limit = DevtoolsRequestLimit(maximum: 0)
        #expect(limit.maximum == 1)
        #expect(limit.acquire())
        #expect(!limit.acquire())
    }
}
