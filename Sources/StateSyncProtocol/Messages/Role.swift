/// What a session may do, as the server grants it in `welcome`. Each role
/// includes the ones below it: a `writer` may read, an `admin` may read and
/// dispatch.
///
/// ```swift
/// Role.reader.mayDispatch        // false
/// Role.writer >= .reader         // true
/// ```
public enum Role: String, Sendable, Hashable, CaseIterable, Comparable {
    /// May subscribe and `get`.
    case reader
    /// May also `dispatch` actions.
    case writer
    /// May also use admin and devtools features.
    case admin

    /// Whether the role may `dispatch` (writers and admins).
    public var mayDispatch: Bool { self >= .writer }

    /// Whether the role may use admin and devtools features (admins only).
    public var mayAdminister: Bool { self == .admin }

    private var rank: Int {
        switch self {
        case .reader: 0
        case .writer: 1
        case .admin: 2
        }
    }

    /// Orders roles by what they may do: reader < writer < admin.
    public static func < (lhs: Role, rhs: Role) -> Bool {
        lhs.rank < rhs.rank
    }
}
