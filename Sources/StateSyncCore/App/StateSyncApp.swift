/// What a StateSync server serves: any application, not only the board.
///
/// An app names its state, its client actions, its reducer and, optionally,
/// its effects. The reducer reduces ``SessionCommand``s: client actions
/// wrapped with the session that sent them, the server's own `system`
/// actions (from effects), and the lifecycle commands the server journals
/// itself (`sessionJoined`, `sessionLeft`, `serverStarted`).
///
/// Subscribers see the state as JSON. The server's `SyncEngine` keeps a JSON mirror of
/// the state and, after each action, re-encodes only the parts the reducer's
/// ``Footprint`` names, found with ``jsonPointer(for:)``; without a mapping
/// (the default) it re-encodes the whole state, which costs in proportion to
/// the state's size. An app whose `State` is ``JSONValue`` needs no encoding
/// at all.
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
    /// The JSON Pointer at which the value under `keyPath` (a key path from
    /// `State`, as the reducer's footprint reports it) appears in the
    /// encoded state, or `nil` when the app does not say (then the engine
    /// re-encodes the whole state). Map only non-optional stored properties
    /// whose encoded form is exactly the property's own `Codable` form.
    /// Default: `nil` for every key path.
    static func jsonPointer(for keyPath: AnyKeyPath) -> JSONPointer?
    /// The effects of accepted commands, or `nil` (the default) for none.
    ///
    /// The server asks it after every accepted command, with the new state,
    /// and runs the effect it returns. An effect's follow-ups must be
    /// ``SessionCommand/system(_:)`` commands (the reducer decides what a
    /// client may not do; see the board's dice). They are journaled like
    /// every command, so a replay of the journal reduces them again and
    /// does not run effects. Effects are where non-deterministic work
    /// belongs (random numbers, clocks, I/O), never the reducer.
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
