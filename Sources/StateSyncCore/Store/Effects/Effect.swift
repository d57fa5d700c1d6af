/// Work started after an action is accepted, answering with follow-up actions.
///
/// An ``EffectRunner`` runs each in its own task and hands its actions back in
/// order; a ``Store`` reduces each before taking the next. Effects are
/// cancelled by id, by a newer one with the same id and `cancelInFlight`, and
/// all at ``Store/shutdown()``.
///
/// ```swift
/// Effects<Board, BoardAction> { action, state, meta in
///     guard case .startTimer = action else { return .none }
///     return .run(id: EffectID("timer"), cancelInFlight: true) { send in
///         for await _ in ticks { await send(.tick) }
///     }
/// }
/// ```
public struct Effect<Action: Sendable>: Sendable {
    /// One unit of work.
    enum Operation: Sendable {
        case run(id: EffectID?, cancelInFlight: Bool, body: @Sendable (Send) async -> Void)
        case cancel(EffectID)
    }

    /// Dispatches a follow-up action and waits until it has been reduced.
    public typealias Send = @Sendable (Action) async -> Void

    let operations: [Operation]

    /// No effect.
    public static var none: Effect { Effect(operations: []) }

    /// Whether this effect does nothing (``none``, or a merge of nothing).
    public var isNone: Bool { operations.isEmpty }

    /// An effect running `body`, which sends follow-up actions with `send`.
    /// Cancellation reaches `body` as task cancellation: it should stop when
    /// `Task.isCancelled` or a cancellable await throws.
    public static func run(
        id: EffectID? = nil,
        cancelInFlight: Bool = false,
        _ body: @escaping @Sendable (_ send: Send) async -> Void
    ) -> Effect {
        Effect(operations: [.run(id: id, cancelInFlight: cancelInFlight, body: body)])
    }

    /// An effect dispatching every element of `actions`, in order.
    public static func sequence<Actions: AsyncSequence<Action, Never> & Sendable>(
        _ actions: Actions, id: EffectID? = nil, cancelInFlight: Bool = false
    ) -> Effect {
        run(id: id, cancelInFlight: cancelInFlight) { send in
            for await action in actions {
                await send(action)
            }
        }
    }

    /// An effect dispatching every element of a throwing `actions`, in order;
    /// a failure is turned into a last action by `failure` (or ends the effect
    /// when it returns `nil`). Cancellation is not reported as a failure.
    public static func sequence<Actions: AsyncSequence & Sendable>(
        _ actions: Actions,
        id: EffectID? = nil,
        cancelInFlight: Bool = false,
        catch failure: @escaping @Sendable (any Error) -> Action?
    ) -> Effect where Actions.Element == Action {
        run(id: id, cancelInFlight: cancelInFlight) { send in
            do {
                for try await action in actions {
                    await send(action)
                }
            } catch is CancellationError {
                return
            } catch {
                if let action = failure(error) { await send(action) }
            }
        }
    }

    /// Cancels the running effects named `id`.
    public static func cancel(id: EffectID) -> Effect {
        Effect(operations: [.cancel(id)])
    }

    /// All these effects, started in order.
    public static func merge(_ effects: Effect...) -> Effect {
        Effect(operations: effects.flatMap(\.operations))
    }
}
