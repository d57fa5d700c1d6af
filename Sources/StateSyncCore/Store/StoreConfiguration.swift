public import Foundation

/// Settings of a ``Store`` that are not part of the application's logic.
public struct StoreConfiguration: Sendable {
    /// The clock that fixes ``Meta/time`` when an action is accepted.
    ///
    /// Default: the system wall clock (`Date()`), because `Meta.time` is stored
    /// in the journal and shown to people. Tests inject a fixed or stepping clock
    /// so that reducers writing `meta.time` into the state are reproducible.
    public var clock: @Sendable () -> Date

    /// A configuration; every field has the default described on it.
    public init(clock: @escaping @Sendable () -> Date = { Date() }) {
        self.clock = clock
    }
}
