/// What a StateSync server serves: an app's state, client actions, reducer and,
/// optionally, effects.
///
/// The reducer reduces ``SessionCommand``s. Subscribers see the state as JSON:
/// after each action the server's `SyncEngine` re-encodes only the parts the
/// reducer's ``Footprint`` names, found with ``jsonPointer(for:)``, or the
/// whole state without a mapping; a ``JSONValue`` state needs none.
///
/// ```swift
/// enum CounterApp: StateSyncApp {
///     static let initialState = Counters()
///     static let reducer: any Reducer<Counters, SessionCommand<CounterAction>> = CounterReducer()
///     static func jsonPointer(for keyPath: AnyKeyPath) -> JSONPointer? {
///         keyPath == \Counters.hits ? JSONPointer(tokens: ["hits"]) : nil
///     }
/// }
/// ```
public protocol StateSyncApp: Sendable {
    /// The shared state document. Its `Codable` form is what subscribers see
    /// and what snapshots store; it must encode deterministically (no
    /// unordered `Set`s or dictionaries with non-`String` keys).
    associatedtype State: Codable & Equatable & Sendable
    /// The actions clients dispatch, read from the `{"type":…}` wire shape.
    associatedtype Action: WireAction & Sendable
    /// The state of a fresh history (revision 0).
    static var initialState: State { get }
    /// Reduces session commands with their ``Meta``. Must be deterministic
    /// (DESIGN invariant 2) and leave the state untouched when it throws.
    static var reducer: any Reducer<State, SessionCommand<Action>> { get }
    /// Where the value under `keyPath` is in the encoded state, or `nil` (the
    /// default) to re-encode the whole state. Map only non-optional stored
    /// properties encoded exactly as their own `Codable` form.
    static func jsonPointer(for keyPath: AnyKeyPath) -> JSONPointer?
    /// The effects of accepted commands, or `nil` (the default). Follow-ups are
    /// ``SessionCommand/system(_:)`` commands, journaled, so a replay reduces
    /// them without running effects. Random numbers, clocks, I/O belong here.
    static var effects: Effects<State, SessionCommand<Action>>? { get }
    /// The version of the shape of `State` and `Action` this build speaks;
    /// raise it by one with each change of shape, and register the step
    /// from the old version in ``migrations``. Default 1.
    static var schemaVersion: Int { get }
    /// How state and actions stored by older versions become this
    /// version's: one step from each version before ``schemaVersion``.
    /// Default none (an app at version 1).
    static var migrations: SchemaMigrations { get }
}

extension StateSyncApp {
    /// No effects.
    public static var effects: Effects<State, SessionCommand<Action>>? { nil }

    /// No mapping: every change re-encodes the whole state.
    public static func jsonPointer(for keyPath: AnyKeyPath) -> JSONPointer? { nil }

    /// Version 1.
    public static var schemaVersion: Int { 1 }

    /// No migrations.
    public static var migrations: SchemaMigrations { [] }

    /// Checks at start-up that ``migrations`` lead from version 1 to
    /// ``schemaVersion``, each step once (an error names a gap, a duplicate
    /// or a step past the version).
    public static func validateSchema() throws(SchemaError) {
        try migrations.validate(upTo: schemaVersion)
    }
}
