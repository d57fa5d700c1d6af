/// A state whose top-level members the client's observable mirror follows
/// one by one: a patch decodes and invalidates only the members it touches.
///
/// List every stored member (a change to a member not listed decodes the
/// whole state again). Each member's encoded form must be exactly its own
/// `Codable` form under its key, as the synthesized `Codable` gives.
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
