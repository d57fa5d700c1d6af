/// What a synchronous ``Store/send(_:clientID:time:)`` could tell at once: a
/// send during another dispatch is queued, its outcome not yet known.
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
