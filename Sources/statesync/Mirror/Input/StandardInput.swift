import Dispatch
import Glibc
import Synchronization

/// The bytes typed on stdin, as they arrive, read by a dispatch source (no
/// thread of the task pool blocks on the terminal).
enum StandardInput {
    /// Chunks of bytes read from stdin; ends at end of input and stops
    /// reading when the iterating task is cancelled.
    static func chunks() -> AsyncStream<[UInt8]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        let source = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: DispatchQueue(label: "statesync.stdin"))
        source.setEventHandler {
            var buffer = [UInt8](repeating: 0, count: 1_024)
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count > 0 {
                continuation.yield(Array(buffer.prefix(count)))
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                continuation.finish()   // end of input, or the terminal went away
            }
        }
        source.resume()
        let reader = ReadSourceCanceller(source)
        continuation.onTermination = { _ in reader.cancel() }
        return stream
    }
}

/// Holds a read source until the stream it feeds ends, then cancels it.
private final class ReadSourceCanceller: Sendable {
    private let source: Mutex<(any DispatchSourceRead)?>

    init(_ source: sending any DispatchSourceRead) {
        self.source = Mutex(source)
    }

    /// Stops reading (once).
    func cancel() {
        source.withLock { source in
            source?.cancel()
            source = nil
        }
    }
}
