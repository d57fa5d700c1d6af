import NIOCore
import Testing
@testable import StateSyncLoad

/// Where the clients connect from: spread over loopback addresses past what
/// one address's ports allow, as given otherwise, validated.
@Suite struct SourceAddressTests {
    @Test func manyClientsOfALoopbackServerAreSpreadOverLoopbackAddresses() {
        var scenario = LoadScenario(url: "ws://127.0.0.1:8080/sync", clients: 100_000)
        scenario.spreadOverLoopback()
        #expect(scenario.sourceAddresses == (1...10).map { "127.0.0.\($0)" })
        #expect(scenario.sourceAddress(ofClient: 12)?.ipAddress == "127.0.0.3")
    }

    @Test(arguments: [
        ("ws://127.0.0.1:8080/sync", 10_000),   // one address's ports suffice
        ("ws://10.0.0.5:8080/sync", 100_000),   // not loopback: the system chooses
    ])
    func otherwiseTheSystemChooses(url: String, clients: Int) {
        var scenario = LoadScenario(url: url, clients: clients)
        scenario.spreadOverLoopback()
        #expect(scenario.sourceAddresses.isEmpty)
        #expect(scenario.sourceAddress(ofClient: 0) == nil)
    }

    @Test func givenAddressesAreKeptAndChecked() throws {
        var scenario = LoadScenario(url: "ws://127.0.0.1:8080/sync", clients: 100_000)
        scenario.sourceAddresses = ["127.0.0.9"]
        scenario.spreadOverLoopback()
        #expect(scenario.sourceAddresses == ["127.0.0.9"])
        try scenario.validate()
        scenario.sourceAddresses = ["not-an-address"]
        #expect(throws: LoadScenarioError.self) { try scenario.validate() }
        scenario.sourceAddresses = []
        scenario.connectRate = 0
        #expect(throws: LoadScenarioError.self) { try scenario.validate() }
    }
}
