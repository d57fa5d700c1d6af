import Foundation
import NIOCore
import NIOPosix

/// A minimal HTTP/1.1 GET (and POST) over loopback for `/health`, `/metrics` and `/api/dispatch`.
package enum HTTPGet {
    /// The status code and body of `POST path` with `body`.
    package static func post(port: Int, path: String, body: String) async throws -> (status: Int, body: String) {
        try await get(port: port, path: path, method: "POST", headers: "Content-Length: \(body.utf8.count)\r\n", body: body)
    }

    /// The status code and body of `GET path`.
    package static func get(
        port: Int, path: String, method: String = "GET", headers: String = "", body: String = ""
    ) async throws -> (status: Int, body: String) {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: "\(method) \(path) HTTP/1.1\r\nHost: localhost\r\n\(headers)\r\n\(body)"))
            var response = ""
            for try await chunk in inbound {
                response += String(buffer: chunk)
                if let parsed = parse(response) { return parsed }
            }
            return parse(response) ?? (0, response)
        }
    }

    /// The status and body once the whole response (by Content-Length) is in.
    private static func parse(_ response: String) -> (Int, String)? {
        guard let split = response.range(of: "\r\n\r\n") else { return nil }
        let head = response[..<split.lowerBound]
        let body = String(response[split.upperBound...])
        let lines = head.split(separator: "\r\n")
        guard let statusLine = lines.first, let status = Int(statusLine.split(separator: " ")[1]) else { return nil }
        let length = lines.dropFirst().first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        return body.utf8.count >= length ? (status, body) : nil
    }
}
