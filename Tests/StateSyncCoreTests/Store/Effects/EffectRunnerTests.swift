import StateSyncCore
import Synchronization
import Testing

@Suite("EffectRunner", .timeLimit(.minutes(1)))
struct EffectRunnerTests {
    @Test("a body's sends reach send in order, one at a time")
    func sendOrder() async {
        let sent = Collected<Int>()
        let runner = EffectRunner<Int>()
        runner.start(.run { send in
            for value in 1...5 { await send(value) }
        }) { sent.append($0) }
        await runner.finished()
        #expect(sent.all == [1, 2, 3, 4, 5])
        #expect(runner.runningCount == 0)
    }

    @Test("finished returns at once when nothing runs")
    func finishedWhenIdle() async {
        let runner = EffectRunner<Int>()
        runner.start(.none) { _ in }
        #expect(runner.runningCount == 0)
        await runner.finished()
    }

    @Test("cancel(id:) stops the effect and drops its later sends")
    func cancelByID() async {
        let (events, event) = AsyncStream.makeStream(of: String.self)
        let runner = EffectRunner<Int>()
        runner.start(.run(id: EffectID("wait")) { send in
            await send(1)
            await waitUntilCancelled()
            await send(2)   // dropped
            event.yield("ended")
        }) { event.yield("sent \($0)") }
        var next = events.makeAsyncIterator()
        #expect(await next.next() == "sent 1")
        #expect(runner.runningCount == 1)
        runner.cancel(id: EffectID("wait"))
        #expect(runner.runningCount == 0)
        #expect(await next.next() == "ended")
    }

    @Test("cancelInFlight cancels the running effect with the same id; .cancel(id:) the rest")
    func cancelInFlight() async {
        let (events, event) = AsyncStream.makeStream(of: String.self)
        let runner = EffectRunner<String>()
        let effect = { (name: String) in
            Effect<String>.run(id: EffectID("job"), cancelInFlight: true) { send in
                await send("\(name) started")
                await waitUntilCancelled()
                await send("\(name) sent after cancellation")   // dropped
                event.yield("\(name) ended")
            }
        }
        var next = events.makeAsyncIterator()
        runner.start(effect("first")) { event.yield($0) }
        #expect(await next.next() == "first started")
        runner.start(effect("second")) { event.yield($0) }
        #expect(runner.runningCount == 1)
        var seen = [await next.next(), await next.next()]
        #expect(Set(seen) == ["first ended", "second started"])
        runner.start(.cancel(id: EffectID("job"))) { event.yield($0) }
        #expect(runner.runningCount == 0)
        seen = [await next.next()]
        #expect(seen == ["second ended"])
    }

    @Test("shutdown cancels every effect, waits for their tasks, and refuses later starts")
    func shutdown() async {
        let ended = Collected<String>()
        let runner = EffectRunner<Int>()
        for name in ["a", "b"] {
            runner.start(.run { _ in
                await waitUntilCancelled()
                ended.append(name)
            }) { _ in }
        }
        #expect(runner.runningCount == 2)
        await runner.shutdown()
        #expect(Set(ended.all) == ["a", "b"])
        runner.start(.run { _ in Issue.record("started after shutdown") }) { _ in }
        #expect(runner.runningCount == 0)
        await runner.finished()
    }

    @Test("finished waits for effects still running")
    func finishedWaits() async {
        let (gate, opened) = AsyncStream.makeStream(of: Void.self)
        let sent = Collected<Int>()
        let runner = EffectRunner<Int>()
        runner.start(.run { send in
            for await _ in gate {}
            await send(7)
        }) { sent.append($0) }
        async let done: Void = runner.finished()
        opened.finish()
        await done
        #expect(sent.all == [7])
    }
}

/// Suspends until the current task is cancelled.
private func waitUntilCancelled() async {
    let (never, _) = AsyncStream.makeStream(of: Void.self)
    for await _ in never {}
}
