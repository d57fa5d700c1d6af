import StateSyncClient
import StateSyncProtocol
import Testing

@testable import statesync

/// The mirror's top line names a store other than main.
@Suite struct StatusBarTests {
    @Test func theBarNamesAStoreOtherThanMain() throws {
        var bar = StatusBar(url: "ws://h:1/sync")
        bar.connection = .online
        bar.rev = 3
        #expect(bar.text == "StateSync mirror · ws://h:1/sync · online · rev 3")
        bar.store = try StoreName("team-42")
        #expect(bar.text == "StateSync mirror · ws://h:1/sync · store team-42 · online · rev 3")
    }
}
