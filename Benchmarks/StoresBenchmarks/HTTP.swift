import Foundation

/// A request to the server under measurement over a fresh loopback
/// connection (`Connection: close`): its status and body.
struct LoopbackHTTP {
    let port: UInt16

    func request(_ method: String, _ path: String, body: String = "") throws -> (status: Int, body: String) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { throw BenchmarkFailure("cannot connect to port \(port): errno \(errno)") }
        let head = "\(method) \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n"
            + (body.isEmpty ? "" : "Content-Type: application/json\r\n") + "\r\n"
        let bytes = Array((head + body).utf8)
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
            guard written > 0 else { throw BenchmarkFailure("send failed: errno \(errno)") }
            sent += written
        }
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let received = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard received > 0 else { break }
            response.append(contentsOf: chunk[..<received])
        }
        let text = String(decoding: response, as: UTF8.self)
        guard text.count >= 12, let status = Int(text.dropFirst(9).prefix(3)) else { throw BenchmarkFailure("no HTTP answer to \(path)") }
        let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
        return (status, body)
    }

    /// `request`, failing unless it answers 200.
    @discardableResult
    func ok(_ method: String, _ path: String, body: String = "") throws -> String {
        let (status, answer) = try request(method, path, body: body)
        guard status == 200 else { throw BenchmarkFailure("\(method) \(path): \(status) \(answer)") }
        return answer
    }
}

/// A loopback port no one listens on now: the kernel's pick for a socket bound to port 0.
func freeLoopbackPort() throws -> UInt16 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
        }
    }
    guard bound else { throw BenchmarkFailure("cannot pick a free port: errno \(errno)") }
    return UInt16(bigEndian: address.sin_port)
}

/// Why the benchmark stopped.
struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
