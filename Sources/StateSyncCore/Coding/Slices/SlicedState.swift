/// A state whose top-level members the client's observable mirror follows one
/// by one: a patch decodes and invalidates only the members it touches. List
/// every stored member, each encoded exactly as its own `Codable` form.
///
/// ```swift
/// extension BoardState: SlicedState {
///     public static var slices: [StateSlice<BoardState>] {
///         [StateSlice(\.todos, at: "todos"), StateSlice(\.counters, at: "counters"),
///          StateSlice(\.chat, at: "chat"), StateSlice(\.presence, at: "presence")]
///     }
/// }
/// ```
public protocol SlicedState: Decodable {
    /// The top-level members, each with its key in the encoded state.
    static var slices: [StateSlice<Self>] { get }
}
