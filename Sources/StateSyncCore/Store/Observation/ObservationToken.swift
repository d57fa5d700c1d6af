import Synchronization

/// Keeps a callback subscription alive; ``cancel()`` or releasing the last
/// reference stops it.
public final class ObservationToken: Sendable, Hashable {
    private let onCancel: Mutex<(@Sendable () -> Void)?>

    /// A token running `onCancel` once, on the first ``cancel()`` or at deinit.
    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = Mutex(onCancel)
    }

    /// Stops the subscription; no callback starts after this returns. Idempotent.
    public func cancel() {
        let action = onCancel.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }

    deinit {
        cancel()
    }

    /// Tokens are equal when they are the same token.
    public static func == (lhs: ObservationToken, rhs: ObservationToken) -> Bool {
        lhs === rhs
    }

    /// Hashes the token's identity, so tokens can be kept in a `Set`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
