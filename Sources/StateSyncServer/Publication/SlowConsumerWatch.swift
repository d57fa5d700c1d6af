import CoreMetrics
import Logging
import StateSyncCore

/// Decides whether a session may be sent more now, from its sink's
/// ``SessionSink/isWritable``: a session found not writable becomes a slow
/// consumer (its patches are coalesced, its answers held back) and its sink
/// is asked, once, to report when it can take more.
struct SlowConsumerWatch {
    let metrics: ServerMetrics
    let logger: Logger
    /// Called with a session id when a slow session's sink reports it drained.
    let drained: @Sendable (String) -> Void

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
