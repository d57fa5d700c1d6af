/// Where a value is in the value enclosing it: a member's key, or an
/// element's index (its ``JSONCodingKey`` made only when a path is asked for).
enum CodingPathStep {
    case key(any CodingKey)
    case index(Int)

    /// The step as a coding key.
    var key: any CodingKey {
        switch self {
        case .key(let key): key
        case .index(let index): JSONCodingKey(index: index)
        }
    }
}
