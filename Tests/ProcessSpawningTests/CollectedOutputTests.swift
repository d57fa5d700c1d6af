import Foundation
import ProcessSpawning
import Testing

@Suite(.timeLimit(.minutes(1))) struct CollectedOutputTests {
    /// `output`'s text once it satisfies `done`, or its last text after 10 s:
    /// polled every 10 ms, because Foundation's reader thread appends with
    /// nothing to await.
    private func text(of output: CollectedOutput, when done: (String) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(10)
        while !done(output.text), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        return output.text
    }

    @Test func collectsEverythingTheChildPrints() async throws {
        let child = try SpawnedChild(["/bin/sh", "-c", "echo first; sleep 0.1; echo second"], standardOutput: .pipe)
        let output = CollectedOutput(try #require(child.standardOutput))
        #expect(await child.exitStatus == 0)
        #expect(try await text(of: output) { $0.hasSuffix("second\n") } == "first\nsecond\n")
    }

    @Test func keepsTheFirstBytesUpToItsLimitAndCountsTheRest() async throws {
        let child = try SpawnedChild(["/bin/sh", "-c", "printf 0123456789abcdef"], standardOutput: .pipe)
        let output = CollectedOutput(try #require(child.standardOutput), limit: 10)
        #expect(await child.exitStatus == 0)
        #expect(try await text(of: output) { $0.contains("not kept") } == "0123456789\n[6 more bytes of output not kept]")
    }
}
