import NIOCore

/// Runs a task's jobs on one NIO event loop: the sequencer's runs use it as
/// their executor preference, so that a store's rounds, and the fan-out
/// hand-offs they make to that loop's shard, need no thread of Swift's
/// cooperative pool to be woken for each action.
final class EventLoopTaskExecutor: TaskExecutor {
    /// The loop every job runs on.
    let eventLoop: any EventLoop

    /// An executor running its jobs on `eventLoop`.
    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }

    func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }
}
