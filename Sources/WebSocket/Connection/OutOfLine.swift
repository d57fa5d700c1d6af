/// A value kept in a heap box of its own, so that its holder stores one
/// pointer instead of the value: for state that an idle connection never
/// uses (the close handshake's statuses, a message still arriving,
/// compression), which would otherwise widen every connection's handler.
/// Copies share the box until one of them changes (copy on write).
struct OutOfLine<Value> {
    private final class Box {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    private var box: Box

    /// Boxes `value`.
    init(_ value: Value) {
        box = Box(value)
    }

    /// The value; changed in place when this is the box's only holder.
    var value: Value {
        get { box.value }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
            yield &box.value
        }
    }
}
