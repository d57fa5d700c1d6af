/// A line for the message line, with how to colour it.
struct Message: Sendable, Hashable {
    /// What kind of news it is.
    enum Kind: Sendable, Hashable {
        /// Hints and help.
        case info
        /// A command that worked.
        case success
        /// A rejection, a bad command or an error.
        case failure

        /// Its colour.
        var color: String {
            switch self {
            case .info: ANSI.dim
            case .success: ANSI.green
            case .failure: ANSI.red
            }
        }
    }

    /// The text.
    var text: String
    /// Its kind.
    var kind: Kind
}
