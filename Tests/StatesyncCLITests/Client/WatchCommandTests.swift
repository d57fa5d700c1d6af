import TestProcessSupport
import Foundation
import StateSyncCore
import StateSyncTestSupport
import Testing

/// `statesync watch` as a process: lines appear as the state changes.
@Suite(.timeLimit(.minutes(1)))
struct WatchCommandTests {
    /// The NDJSON lines printed so far.
    private static func lines(_ process: ServeProcess) throws -> [JSONValue] {
        try process.standardOutput.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
    }

    @Test func jsonPrintsOneLinePerChangeWithRevPathAndValue() async throws {
        try await CLI.withServer { url in
            let watch = try ServeProcess(["watch", "--json", "/counters/hits", "/todos", "--url", url])
            #expect(try await eventually { try Self.lines(watch).count == 2 }, "\(watch.standardOutput) \(watch.standardError)")
            let initial = try Self.lines(watch)
            #expect(Set(initial.compactMap { $0["path"]?.stringValue }) == ["/counters/hits", "/todos"])
            #expect(initial.first { $0["path"] == "/counters/hits" }?["value"] == .null)

            var revs: [Int64] = []
            for _ in 0..<2 {
                let result = try await CLI.run(["dispatch", "increment", "counter=hits", "--url", url])
                revs.append(try #require(Int64(result.output.trimmingCharacters(in: .newlines))))
                // Each change is seen before the next is made: one line each.
                #expect(try await eventually { try Self.lines(watch).count == 2 + revs.count }, "\(watch.standardOutput)")
            }
            let changes = try Self.lines(watch).dropFirst(2)
            #expect(changes.map { $0["path"] } == ["/counters/hits", "/counters/hits"])
            #expect(changes.map { $0["value"] } == [1, 2])
            // A change is printed at its own revision, or at a later one when the
            // fan-out, behind on a loaded machine, merged it with the next
            // (the dispatching session's leave): never before it.
            let printed = changes.compactMap { $0["rev"]?.int64Value }
            #expect(printed.count == revs.count && zip(printed, revs).allSatisfy { $0 >= $1 } && printed[0] < revs[1], "\(printed) for \(revs)")

            watch.send(SIGTERM)
            #expect(await watch.waitForExit() == 0)
            #expect(watch.standardError.isEmpty, "\(watch.standardError)")
        }
    }

    @Test func plainOutputIsTheValueAlone() async throws {
        try await CLI.withServer { url in
            let watch = try ServeProcess(["watch", "/counters/hits", "--url", url])
            #expect(try await eventually { watch.standardOutput == "null\n" }, "\(watch.standardOutput)")
            _ = try await CLI.run(["dispatch", "increment", "counter=hits", "by=5", "--url", url])
            #expect(try await eventually { watch.standardOutput == "null\n5\n" }, "\(watch.standardOutput)")
            watch.send(SIGINT)
            #expect(await watch.waitForExit() == 0)
        }
    }
}
