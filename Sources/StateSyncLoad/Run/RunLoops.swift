import NIOCore
import NIOPosix

/// The load generator's event loops, each with its recorder.
struct RunLoops: Sendable {
    let group: MultiThreadedEventLoopGroup
    let loops: [any EventLoop]
    let recorders: [NIOLoopBound<LoopRecorder>]

    /// `threads` loops, each with a recorder for `stores` stores.
    static func start(threads: Int, stores: Int) async throws -> RunLoops {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let loops = Array(group.makeIterator())
        var recorders: [NIOLoopBound<LoopRecorder>] = []
        for loop in loops {
            recorders.append(try await loop.submit { NIOLoopBound(LoopRecorder(stores: stores), eventLoop: loop) }.get())
        }
        return RunLoops(group: group, loops: loops, recorders: recorders)
    }

    /// The loop client `index` lives on.
    func slot(_ index: Int) -> Int { index % loops.count }

    /// Runs `body` with each loop's recorder, on that loop, and returns the results.
    func withEachRecorder<T: Sendable>(_ body: @escaping @Sendable (LoopRecorder) -> T) async throws -> [T] {
        var results: [T] = []
        for (loop, recorder) in zip(loops, recorders) {
            results.append(try await loop.submit { body(recorder.value) }.get())
        }
        return results
    }

    /// Every 10 ms on every loop: match the patches received with the
    /// actions now answered. Returns the timers (cancel them at the end).
    func startMatching(_ shared: RunShared) -> [RepeatedTask] {
        zip(loops, recorders).map { loop, recorder in
            loop.scheduleRepeatedTask(initialDelay: .milliseconds(10), delay: .milliseconds(10)) { _ in
                recorder.value.match(ledgers: shared.ledgers, watermark: shared.watermark.value, counters: shared.counters)
            }
        }
    }

    func shutdown() async {
        try? await group.shutdownGracefully()  // fails only when already shut down
    }
}
