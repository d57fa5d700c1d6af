import OpenCombineShim
import Synchronization

/// A subject fed from a mirror's `@Sendable` callbacks. `@unchecked Sendable`:
/// `lock` serialises every `send` to `subject`, which is not `Sendable` itself.
final class SubjectRelay<Value>: @unchecked Sendable {
    /// The subject the values go to; it holds the latest for a new demand.
    let subject: CurrentValueSubject<Value, Never>
    private let lock = Mutex(())

    /// A relay whose subject starts at `value`.
    init(_ value: Value) {
        subject = CurrentValueSubject(value)
    }

    /// Sends `value` to the subject's subscribers, one send at a time.
    func send(_ value: Value) {
        lock.withLock { _ in subject.send(value) }
    }
}
