import Foundation

/// A blocking TCP socket to a loopback server, for abuse tests that need
/// what a WebSocket or HTTP client library does not do: never read, send
/// half a request, connect from another loopback address (`127.0.0.2`).
/// Every call blocks: call it through `onOwnThread`.
package final class RawSocket: @unchecked Sendable {
    // @unchecked: `descriptor` is set once in `init`; each socket is used
    // from one thread at a time by its test.
    private let descriptor: Int32

    /// Connects to `127.0.0.1:port`, from `source` when given. A small
    /// `receiveBuffer` makes a client that never reads stall the server sooner.
    package init(port: Int, source: String? = nil, receiveBuffer: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawSocketError(operation: "socket", code: errno) }
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var local = Self.address(source, port: 0)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { throw RawSocketError(operation: "bind", code: errno) }
        }
        var remote = Self.address("127.0.0.1", port: port)
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw RawSocketError(operation: "connect", code: errno) }
    }

    /// The one place the descriptor is closed: a class whose initializer
    /// throws after setting every property is deinitialized too, so closing
    /// there as well would close it twice (and the second time, whatever
    /// descriptor reused its number meanwhile, such as libdispatch's own).
    deinit {
        close(descriptor)
    }

    /// Closes both directions now (the descriptor is released at deinit).
    package func disconnect() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    private static func address(_ host: String, port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        return address
    }

    /// Sends all of `bytes`; returns `false` when a send blocked for longer
    /// than `timeout` (the peer stopped reading) or the connection failed.
    package func send(_ bytes: [UInt8], timeout: Duration = .seconds(2)) -> Bool {
        var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Sends `text` as UTF-8 (see ``send(_:timeout:)``).
    package func send(_ text: String, timeout: Duration = .seconds(2)) -> Bool {
        send(Array(text.utf8), timeout: timeout)
    }

    /// Up to `count` bytes, waiting at most `timeout`: empty at the end of
    /// the stream (or a reset), `nil` when nothing came in time.
    package func receive(upTo count: Int = 65_536, timeout: Duration = .seconds(5)) -> [UInt8]? {
        var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: count)
        let received = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, count, 0) }
        if received < 0 { return errno == EAGAIN || errno == EWOULDBLOCK ? nil : [] }
        return Array(buffer[0..<received])
    }

    /// Everything until the peer closes (or `timeout` passes without a byte).
    package func receiveUntilClosed(timeout: Duration = .seconds(5)) -> (bytes: [UInt8], closed: Bool) {
        var all: [UInt8] = []
        while let chunk = receive(timeout: timeout) {
            if chunk.isEmpty { return (all, true) }
            all += chunk
        }
        return (all, false)
    }
}

/// A failed socket call of ``RawSocket``.
package struct RawSocketError: Error, CustomStringConvertible {
    /// The call that failed.
    package let operation: String
    /// Its `errno`.
    package let code: Int32

    /// `connect: Connection refused`.
    package var description: String { "\(operation): \(String(cString: strerror(code)))" }
}
