import Foundation
import ProcessSpawning
import Testing

@Suite(.timeLimit(.minutes(1))) struct CollectedOutputTests {
    @Test func collectsEverythingTheChildPrints() async throws {
        let child = try SpawnedChild(["/bin/sh", "-c", "echo first; sleep 0.1; echo second"], standardOutput: .pipe)
        let output = CollectedOutput(try #require(child.standardOutput))
        #expect(await child.exitStatus == 0)
        await output.waitUntilEnded()
        #expect(output.text == "first\nsecond\n")
    }

    @Test func keepsTheFirstBytesUpToItsLimitAndCountsTheRest() async throws {
        let child = try SpawnedChild(["/bin/sh", "-c", "printf 0123456789abcdef"], standardOutput: .pipe)
        let output = CollectedOutput(try #require(child.standardOutput), limit: 10)
        #expect(await child.exitStatus == 0)
        await output.waitUntilEnded()
        #expect(output.text == "0123456789\n[6 more bytes of output not kept]")
    }
}
