import CoreMetrics
import Logging
import StateSyncCore

/// Decides from ``SessionSink/isWritable`` whether a session may be sent more;
/// one found not writable becomes a slow consumer and its sink is asked once
/// to report the drain. A class, so each delivery retains one reference.
final class SlowConsumerWatch: Sendable {
    let metrics: ServerMetrics
    let logger: Logger
    /// Called with a session id when a slow session's sink reports it drained.
    let drained: @Sendable (String) -> Void

    /// A watch counting in `metrics` and logging to `logger`.
    init(metrics: ServerMetrics, logger: Logger, drained: @escaping @Sendable (String) -> Void) {
        self.metrics = metrics
        self.logger = logger
        self.drained = drained
    }

    /// Whether `session` may be sent more now; marks it slow when not.
    func admits(_ session: inout SessionRecord) -> Bool {
        if session.isSlow { return false }
        guard !session.sink.isWritable else { return true }
        session.isSlow = true
        metrics.slowConsumers.increment()
        logger.debug("slow consumer", metadata: ["session": "\(session.info.id)"])
        let (drained, sessionID) = (drained, session.info.id)
        session.sink.notifyWhenWritable { drained(sessionID) }
        return false
    }
}
