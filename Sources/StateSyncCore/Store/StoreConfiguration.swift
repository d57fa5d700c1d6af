public import Foundation

/// Settings of a ``Store`` that are not part of the application's logic.
public struct StoreConfiguration: Sendable {
    /// The clock that fixes ``Meta/time`` when an action is accepted. Default:
    /// the wall clock (`Date()`), as `Meta.time` is journaled and shown to
    /// people; tests inject a fixed or stepping clock.
    public var clock: @Sendable () -> Date

    /// A configuration; every field has the default described on it.
    public init(clock: @escaping @Sendable () -> Date = { Date() }) {
        self.clock = clock
    }
}
