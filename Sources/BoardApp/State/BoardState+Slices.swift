public import StateSyncCore

/// The board's four members, so that a client's observable mirror decodes
/// and invalidates only the member a patch touches (one todo, one counter).
extension BoardState: SlicedState {
    /// `todos`, `counters`, `chat` and `presence`, under their own keys.
    public static var slices: [StateSlice<BoardState>] {
        [
            StateSlice(\.todos, at: "todos"),
            StateSlice(\.counters, at: "counters"),
            StateSlice(\.chat, at: "chat"),
            StateSlice(\.presence, at: "presence"),
        ]
    }
}
