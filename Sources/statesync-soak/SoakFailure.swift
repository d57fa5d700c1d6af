/// Why a soak run could not go on (a failed check is not an error: it is in
/// the ``SoakReport``). Its description is one sentence.
struct SoakFailure: Error, CustomStringConvertible {
    private enum Base {
        case cannotStart(executable: String, reason: String)
        case didNotStart(start: Int, output: String)
        case serverExited(output: String)
        case cannotReadState(reason: String)
        case tooManyKinds
    }

    private let base: Base

    private init(_ base: Base) {
        self.base = base
    }

    /// The `statesync` executable could not be run.
    static func cannotStart(_ executable: String, reason: String) -> Self { Self(.cannotStart(executable: executable, reason: reason)) }
    /// The server ran but printed no URL within a minute (its `start`th start).
    static func didNotStart(start: Int, output: String) -> Self { Self(.didNotStart(start: start, output: output)) }
    /// The server exited without being killed.
    static func serverExited(output: String) -> Self { Self(.serverExited(output: output)) }
    /// `get ""` failed.
    static func cannotReadState(reason: String) -> Self { Self(.cannotReadState(reason: reason)) }
    /// More writers and slow readers than clients.
    static let tooManyKinds = Self(.tooManyKinds)

    var description: String {
        switch base {
        case let .cannotStart(executable, reason):
            "cannot start \(executable) serve: \(reason)"
        case let .didNotStart(start, output):
            "the server did not start (start \(start)): \(output.isEmpty ? "no output" : String(output.suffix(2_000)))"
        case let .serverExited(output):
            "the server exited without being killed: \(output.isEmpty ? "no output" : String(output.suffix(2_000)))"
        case let .cannotReadState(reason):
            "cannot read the server's state: \(reason)"
        case .tooManyKinds:
            "--writers plus --slow-readers must not exceed --clients"
        }
    }
}
