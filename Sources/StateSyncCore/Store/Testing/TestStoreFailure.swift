/// Why a ``TestStore`` assertion failed; its description is the readable report.
public struct TestStoreFailure: Error, Sendable, CustomStringConvertible {
    private enum Base: Sendable {
        case stateMismatch(action: String, diff: String)
        case rejected(action: String, rejection: Rejection)
        case notRejected(action: String, revision: UInt64)
        case unreceivedActions([String])
        case unexpectedAction(expected: String, received: String)
        case noActionReceived(expected: String, timeout: Duration)
        case receivedRejected(action: String, rejection: Rejection)
        case receivedAccepted(action: String, revision: UInt64)
        case effectsStillRunning(count: Int)
    }

    private let base: Base

    static func stateMismatch(_ action: some Sendable, diff: String) -> TestStoreFailure {
        TestStoreFailure(base: .stateMismatch(action: "\(action)", diff: diff))
    }

    static func rejected(_ action: some Sendable, _ rejection: Rejection) -> TestStoreFailure {
        TestStoreFailure(base: .rejected(action: "\(action)", rejection: rejection))
    }

    static func notRejected(_ action: some Sendable, revision: UInt64) -> TestStoreFailure {
        TestStoreFailure(base: .notRejected(action: "\(action)", revision: revision))
    }

    static func unreceivedActions(_ actions: [String]) -> TestStoreFailure {
        TestStoreFailure(base: .unreceivedActions(actions))
    }

    static func unexpectedAction(expected: some Sendable, received: some Sendable) -> TestStoreFailure {
        TestStoreFailure(base: .unexpectedAction(expected: "\(expected)", received: "\(received)"))
    }

    static func noActionReceived(expected: some Sendable, timeout: Duration) -> TestStoreFailure {
        TestStoreFailure(base: .noActionReceived(expected: "\(expected)", timeout: timeout))
    }

    static func receivedRejected(_ action: some Sendable, _ rejection: Rejection) -> TestStoreFailure {
        TestStoreFailure(base: .receivedRejected(action: "\(action)", rejection: rejection))
    }

    static func receivedAccepted(_ action: some Sendable, revision: UInt64) -> TestStoreFailure {
        TestStoreFailure(base: .receivedAccepted(action: "\(action)", revision: revision))
    }

    static func effectsStillRunning(_ count: Int) -> TestStoreFailure {
        TestStoreFailure(base: .effectsStillRunning(count: count))
    }

    /// The report: what was expected, what happened, and for state mismatches
    /// a diff (`-` expected, `+` actual) per changed path.
    public var description: String {
        switch base {
        case let .stateMismatch(action, diff):
            "state after \(action) differs from the expected state (- expected, + actual):\n\(diff)"
        case let .rejected(action, rejection):
            "\(action) was rejected: \(rejection)"
        case let .notRejected(action, revision):
            "\(action) was expected to be rejected but was accepted at rev \(revision)"
        case let .unreceivedActions(actions):
            "\(actions.count) action(s) from effects were not received: \(actions.joined(separator: ", "))"
        case let .unexpectedAction(expected, received):
            "expected to receive \(expected), received \(received)"
        case let .noActionReceived(expected, timeout):
            "expected to receive \(expected), but no action arrived within \(timeout)"
        case let .receivedRejected(action, rejection):
            "expected to receive \(action) accepted, but it was rejected with code \(rejection.code): "
                + "\(rejection.message) (use receiveRejected to expect a rejection)"
        case let .receivedAccepted(action, revision):
            "expected to receive \(action) rejected, but it was accepted at rev \(revision) "
                + "(use receive to assert its change)"
        case let .effectsStillRunning(count):
            "\(count) effect(s) still running at the end of the test (they were cancelled)"
        }
    }
}
