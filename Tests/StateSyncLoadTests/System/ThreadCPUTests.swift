import Foundation
import Testing
@testable import StateSyncLoad

@Suite(.timeLimit(.minutes(1))) struct ThreadCPUTests {
    /// A `stat` line as Linux writes it: utime 250 and stime 50 ticks (fields 14 and 15).
    static func stat(id: Int32, name: String, user: Int, system: Int) -> String {
        "\(id) (\(name)) S 1 2 3 0 -1 4194368 100 0 0 0 \(user) \(system) 0 0 20 0 3 0 100 0 0"
    }

    @Test func parsesTheNameAndTheCPUTimeOfAThread() throws {
        let thread = try #require(ThreadCPU.parse(stat: Self.stat(id: 42, name: "NIO-ELT-0-#1", user: 250, system: 50), id: 42, ticksPerSecond: 100))
        #expect(thread == ThreadCPU(id: 42, name: "NIO-ELT-0-#1", seconds: 3))
    }

    @Test func aNameWithSpacesAndParenthesesDoesNotShiftTheFields() throws {
        let thread = try #require(ThreadCPU.parse(stat: Self.stat(id: 7, name: "a (b) c", user: 100, system: 0), id: 7, ticksPerSecond: 100))
        #expect(thread.name == "a (b) c")
        #expect(thread.seconds == 1)
    }

    @Test func aTruncatedLineIsNoThread() {
        #expect(ThreadCPU.parse(stat: "7 (x) S 1 2", id: 7, ticksPerSecond: 100) == nil)
    }

    @Test func sharesAreTheCPUEachThreadUsedInBetweenBusiestFirst() {
        let start = [ThreadCPU(id: 1, name: "a", seconds: 10), ThreadCPU(id: 2, name: "b", seconds: 5)]
        let end = [
            ThreadCPU(id: 1, name: "a", seconds: 11), ThreadCPU(id: 2, name: "b", seconds: 6.5),
            ThreadCPU(id: 3, name: "new", seconds: 0.5), ThreadCPU(id: 4, name: "idle", seconds: 0.001),
        ]
        let shares = ThreadCPU.shares(from: start, to: end, over: 2)
        #expect(shares.map(\.name) == ["b", "a", "new"])
        #expect(shares.map(\.cpuPercent) == [75, 50, 25])
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/task"), "reads Linux's /proc"))
    func thisProcessHasAThreadWithCPUTime() {
        let threads = ThreadCPU.threads(of: getpid())
        #expect(!threads.isEmpty)
        #expect(threads.allSatisfy { $0.seconds >= 0 })
    }
}
