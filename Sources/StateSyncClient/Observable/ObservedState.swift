public import StateSyncCore

/// The state of an ``ObservableMirror``, read member by member: `state.todos`
/// registers the reader (a SwiftUI view, a `withObservationTracking` block)
/// for the `todos` slice only.
///
/// ```swift
/// Text("\(board.state.counters["hits", default: 0]) hits")   // redrawn for /counters only
/// ```
@dynamicMemberLookup
public struct ObservedState<App: StateSyncApp>: Sendable {
    let mirror: ObservableMirror<App>

    /// The value at `keyPath` of the shown (predicted) state.
    public subscript<Value>(dynamicMember keyPath: KeyPath<App.State, Value>) -> Value {
        mirror.read(keyPath)
    }

    /// The whole shown state: its reader depends on every slice.
    public var value: App.State { mirror.shownState }
}
