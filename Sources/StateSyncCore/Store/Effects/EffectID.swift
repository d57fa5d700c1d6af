/// Names a running effect so that it can be cancelled, or replaced by a newer one.
///
/// Any `Hashable & Sendable` value works: `EffectID("search")`, `EffectID(todo.id)`.
public struct EffectID: Hashable, Sendable, CustomStringConvertible {
    private let base: any Hashable & Sendable

    /// An id wrapping `value`; two ids are equal when their values are equal and of the same type.
    public init(_ value: some Hashable & Sendable) {
        base = value
    }

    /// Compares the wrapped values.
    public static func == (lhs: EffectID, rhs: EffectID) -> Bool {
        AnyHashable(lhs.base) == AnyHashable(rhs.base)
    }

    /// Hashes the wrapped value.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(AnyHashable(base))
    }

    /// The wrapped value.
    public var description: String { "\(base)" }
}
