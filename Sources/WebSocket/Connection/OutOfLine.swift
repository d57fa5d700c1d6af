/// A value in a copy-on-write heap box, so its holder stores one pointer: for state an idle connection never
/// uses, which would otherwise widen every connection's handler.
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
