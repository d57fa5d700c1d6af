import Testing
@testable import StateSyncLoad

/// The writers of a run take turns within each period instead of all
/// sending at the same instant.
@Suite(.timeLimit(.minutes(1)))
struct WriterPhaseTests {
    @Test func theWritersStartsAreSpreadEvenlyOverOnePeriod() {
        // 4 writers at 1 action/s each: a quarter of a second apart.
        let phases = (0..<4).map { SimulatedClient.phase(ofWriter: $0, of: 4, rate: 1) }
        #expect(phases == [0, 250_000_000, 500_000_000, 750_000_000])
        // 1,000 writers at 10 actions/s: 100 µs apart, all within the first 100 ms.
        let many = (0..<1_000).map { SimulatedClient.phase(ofWriter: $0, of: 1_000, rate: 10) }
        #expect(Set(many).count == 1_000)
        #expect(many.max()! < 100_000_000)
        #expect(many[1] - many[0] == 100_000)
    }

    @Test func oneWriterStartsAtOnce() {
        #expect(SimulatedClient.phase(ofWriter: 0, of: 1, rate: 100) == 0)
    }
}
