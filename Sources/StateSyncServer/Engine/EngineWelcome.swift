/// What ``SyncEngine/join(session:clientID:role:sink:)`` returns for the
/// session's `welcome`: the history's epoch and the current revision.
///
/// ```swift
/// let welcome = engine.join(session: info, clientID: "c-5f2a", role: .writer, sink: sink)
/// sink.send(encoder.encode(.welcome(session: info.id, epoch: welcome.epoch, rev: welcome.rev, role: .writer, server: "statesync/0.1.0")))
/// ```
public struct EngineWelcome: Sendable, Hashable {
    /// The journal's epoch (`welcome.epoch`).
    public var epoch: String
    /// The latest durable revision when the session joined (`welcome.rev`).
    public var rev: UInt64

    /// A welcome for `epoch` at `rev`.
    public init(epoch: String, rev: UInt64) {
        self.epoch = epoch
        self.rev = rev
    }
}
