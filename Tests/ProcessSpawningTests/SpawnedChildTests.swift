import Foundation
import ProcessSpawning
import TestProcessSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct SpawnedChildTests {
    /// Everything on a pipe's reading end until the child exits, read on a
    /// thread of its own.
    private func readToEnd(_ pipe: FileHandle?) async throws -> String {
        let pipe = try #require(pipe, "no pipe: the output was not asked for as .pipe")
        return String(decoding: await onOwnThread { pipe.readDataToEndOfFile() }, as: UTF8.self)
    }

    @Test func pipesCarryStdoutAndStderrAndTheExitCodeIsReported() async throws {
        let child = try SpawnedChild(
            ["/bin/sh", "-c", "echo out; echo err >&2; exit 3"], standardOutput: .pipe, standardError: .pipe)
        #expect(try await readToEnd(child.standardOutput) == "out\n")
        #expect(try await readToEnd(child.standardError) == "err\n")
        #expect(await child.exitStatus == 3)
        #expect(child.waitUntilExit() == 3)
        #expect(!child.isRunning)
    }

    @Test func stderrCanJoinStdout() async throws {
        let child = try SpawnedChild(
            ["/bin/sh", "-c", "echo out; echo err >&2"], standardOutput: .pipe, standardError: .standardOutput)
        #expect(child.standardError == nil)
        #expect(try await readToEnd(child.standardOutput) == "out\nerr\n")
        #expect(await child.exitStatus == 0)
    }

    @Test func outputCanGoToAFile() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("spawned-child-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }   // cleanup only
        let child = try SpawnedChild(["/bin/sh", "-c", "echo to-the-file; echo dropped >&2"], standardOutput: .file(path))
        #expect(await child.exitStatus == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "to-the-file\n")
    }

    @Test func environmentIsAddedAndWorkingDirectoryIsSet() async throws {
        let child = try SpawnedChild(
            ["/bin/sh", "-c", #"pwd; echo "$SPAWNED_CHILD_TEST"; test -n "$PATH" && echo inherited"#],
            environment: ["SPAWNED_CHILD_TEST": "added"], workingDirectory: "/", standardOutput: .pipe)
        #expect(try await readToEnd(child.standardOutput) == "/\nadded\ninherited\n")
    }

    @Test func aSignalEndsTheChildWithStatus128PlusItsNumber() async throws {
        let child = try SpawnedChild(["/bin/sleep", "30"])
        #expect(child.isRunning)
        child.send(SIGTERM)
        #expect(await child.exitStatus == 128 + SIGTERM)
        #expect(!child.isRunning)
        child.send(SIGKILL)   // reaped: nothing is sent, to this pid or another process that got it
    }

    @Test func stopKillsAChildThatIgnoresTheFirstSignal() async throws {
        // The ignored SIGTERM survives the exec: sleep ignores it too.
        let child = try SpawnedChild(
            ["/bin/sh", "-c", "trap '' TERM; echo ready; exec /bin/sleep 300"], standardOutput: .pipe)
        let pipe = try #require(child.standardOutput)
        let ready = await onOwnThread { pipe.availableData }
        #expect(String(decoding: ready, as: UTF8.self) == "ready\n")
        let start = ContinuousClock.now
        #expect(await child.stop(killingAfter: .milliseconds(200)) == 128 + SIGKILL)
        #expect(ContinuousClock.now - start >= .milliseconds(200))
    }

    @Test func stopReturnsAtOnceWhenTheChildExitsCleanly() async throws {
        // A grace period far beyond what a loaded machine takes to end a
        // child: waiting it out instead of returning at the exit shows.
        let child = try SpawnedChild(["/bin/sleep", "300"])
        let start = ContinuousClock.now
        #expect(await child.stop(killingAfter: .seconds(300)) == 128 + SIGTERM)
        #expect(ContinuousClock.now - start < .seconds(60))
    }

    @Test func theChildInheritsNoOtherDescriptorOfTheParent() async throws {
        // A pipe made without close-on-exec, as Foundation's `Pipe` and many
        // libraries make them: only the closing in the child keeps it out.
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        defer { descriptors.forEach { close($0) } }
        let script = #"for fd in 1 "$0" "$1"; do if [ -L /proc/$$/fd/$fd ]; then echo "$fd open"; else echo "$fd closed"; fi; done"#
        let child = try SpawnedChild(
            ["/bin/sh", "-c", script, "\(descriptors[0])", "\(descriptors[1])"], standardOutput: .pipe)
        #expect(try await readToEnd(child.standardOutput) == "1 open\n\(descriptors[0]) closed\n\(descriptors[1]) closed\n")
    }

    @Test func aMissingExecutableIsNamedInTheError() throws {
        let error = #expect(throws: SpawnedChild.Failure.self) {
            try SpawnedChild(["/nonexistent/statesync-missing", "serve"])
        }
        #expect(error?.description == "cannot start /nonexistent/statesync-missing: No such file or directory")
        #expect(error?.program == "/nonexistent/statesync-missing")
        #expect(error?.reason == "No such file or directory")
    }

    @Test func aMissingWorkingDirectoryIsNamedInTheError() throws {
        let error = #expect(throws: SpawnedChild.Failure.self) {
            try SpawnedChild(["/bin/true"], workingDirectory: "/nonexistent/directory")
        }
        #expect(error?.description == "cannot start /bin/true: no such working directory /nonexistent/directory")
    }

    @Test func misusesAreRefusedWithAReason() throws {
        let empty = #expect(throws: SpawnedChild.Failure.self) { try SpawnedChild([]) }
        #expect(empty?.description == "cannot start a program: no arguments, not even its path")
        let loop = #expect(throws: SpawnedChild.Failure.self) { try SpawnedChild(["/bin/true"], standardOutput: .standardOutput) }
        #expect(loop?.description == "cannot start /bin/true: stdout cannot go to stdout (.standardOutput is for stderr)")
    }
}
