import Foundation

/// A loopback TCP port that refuses connections: a socket bound to it and
/// not listening. Holding the binding keeps parallel tests (which bind port
/// 0) from being given the same port, as they could be with a port bound
/// and closed again; a connection attempt gets "connection refused".
package final class ReservedPort: @unchecked Sendable {
    // @unchecked: `descriptor` is only closed once, under `lock`.
    /// The port number.
    package let port: Int
    private var descriptor: Int32
    private let lock = NSLock()

    /// Binds a socket to 127.0.0.1 on a port the OS chooses.
    package init() throws {
        // Close-on-exec: a child process (a tmux server) must not keep the port bound.
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0
            }
        }
        guard bound else {
            close(socket)
            throw POSIXError(.EADDRINUSE)
        }
        descriptor = socket
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Frees the port, for a server about to listen on it.
    package func release() {
        lock.withLock {
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }
    }

    deinit {
        release()
    }
}
