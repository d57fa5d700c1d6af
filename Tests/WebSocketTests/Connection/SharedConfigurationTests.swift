import Testing
@testable import WebSocket

/// Connections configured alike share one configuration; a program that
/// makes ever new ones does not grow the table without bound.
@Suite struct SharedConfigurationTests {
    @Test func equalConfigurationsShareOneInstance() {
        let table = SharedConfigurations(limit: 4)
        let configuration = WebSocketConfiguration(maxFrameSize: 4_321)
        #expect(table.of(configuration) === table.of(configuration))
        #expect(table.of(configuration) !== table.of(WebSocketConfiguration(maxFrameSize: 4_322)))
        let machine = WebSocketConnectionStateMachine(role: .server, configuration: configuration)
        #expect(machine.configuration == configuration)
    }

    @Test func pastTheLimitEachGetsItsOwn() {
        let table = SharedConfigurations(limit: 2)
        for size in [1_000, 2_000] { _ = table.of(WebSocketConfiguration(maxFrameSize: size)) }
        let third = WebSocketConfiguration(maxFrameSize: 3_000)
        #expect(table.of(third) !== table.of(third))
        #expect(table.of(third).value == third)
        #expect(table.of(WebSocketConfiguration(maxFrameSize: 1_000)) === table.of(WebSocketConfiguration(maxFrameSize: 1_000)))
    }
}
