/// A reducer's or middleware's refusal of an action: the state does not
/// change. ``code`` is what a `reject` message sends (`not_found`, or an app's
/// own); ``message`` is for people and names the offending value.
///
/// ```swift
/// guard let index = state.todos.firstIndex(where: { $0.id == id }) else {
///     throw Rejection.notFound("no todo with id \(id)")
/// }
/// ```
public struct Rejection: Error, Sendable, Hashable, CustomStringConvertible {
    /// A short machine-readable reason, e.g. `not_found`.
    public var code: String
    /// A readable explanation naming the wrong value.
    public var message: String

    /// A rejection with an app-defined `code`.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// `invalid_action`: the action does not make sense for this state (bad field values).
    public static func invalidAction(_ message: String) -> Rejection {
        Rejection(code: "invalid_action", message: message)
    }

    /// `not_found`: the action names something the state does not contain.
    public static func notFound(_ message: String) -> Rejection {
        Rejection(code: "not_found", message: message)
    }

    /// `forbidden`: the sender may not perform this action.
    public static func forbidden(_ message: String) -> Rejection {
        Rejection(code: "forbidden", message: message)
    }

    /// `error` itself when it is a rejection; otherwise a rejection with code
    /// `internal_error` carrying the error's description, so that a closure
    /// reducer calling throwing helpers still refuses the action cleanly.
    public init(_ error: any Error) {
        if let rejection = error as? Rejection {
            self = rejection
        } else {
            self.init(code: "internal_error", message: "\(error)")
        }
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}
