import StateSyncCore

/// One re-encoded part of the state, ready to put in a ``StateMirror``.
struct MirrorStep {
    /// Where it goes.
    var pointer: JSONPointer
    /// The new value; `nil` removes the value at ``pointer`` (an object
    /// member or an array element).
    var value: JSONValue?
    /// Whether ``value`` is added as JSON Patch `add` does (a member of an
    /// object, created when absent; an element inserted into an array at
    /// the index) rather than replacing the value at ``pointer``.
    var adds: Bool
    /// How much it grows the mirror's estimated size.
    var growth: Int
}
