/// What a synchronous ``Store/send(_:clientID:time:)`` could tell at once.
///
/// A send made while another dispatch is being processed (from a middleware,
/// an observer callback, an effect or another thread) is queued and reduced
/// later, in order; its outcome is then not known when `send` returns. Use
/// ``Store/dispatch(_:clientID:time:)`` to wait for the outcome.
public enum DispatchStatus: Sendable, Equatable {
    /// Reduced and accepted: the metadata carries the new revision.
    case accepted(Meta)
    /// Refused by a middleware or the reducer: the state is unchanged.
    case rejected(Rejection)
    /// Queued behind the dispatch in progress; it will be reduced in order.
    case queued

    /// The metadata when accepted, otherwise `nil`.
    public var meta: Meta? {
        if case .accepted(let meta) = self { return meta }
        return nil
    }

    /// The outcome of a dispatch that was reduced at once.
    @usableFromInline
    init(_ result: Result<Meta, Rejection>) {
        switch result {
        case .success(let meta): self = .accepted(meta)
        case .failure(let rejection): self = .rejected(rejection)
        }
    }
}
