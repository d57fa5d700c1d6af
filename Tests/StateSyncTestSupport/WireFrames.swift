/// WebSocket frames as raw bytes, for tests that speak the protocol over a
/// ``RawSocket``: client frames (masked, with a zero key, so the payload
/// reads as sent) and a parser for what a server sends.
package enum WireFrames {
    /// The upgrade request a browser would send for `path`.
    package static func upgradeRequest(path: String = "/sync") -> String {
        "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    }

    /// One masked client frame with `opcode` (0x1 text, 0x9 ping) and `payload` (under 126 bytes).
    package static func clientFrame(opcode: UInt8, _ payload: [UInt8]) -> [UInt8] {
        precondition(payload.count < 126, "short frames only")
        return [0x80 | opcode, 0x80 | UInt8(payload.count), 0, 0, 0, 0] + payload
    }

    /// A masked text frame.
    package static func text(_ text: String) -> [UInt8] {
        clientFrame(opcode: 0x1, Array(text.utf8))
    }

    /// A server frame: its opcode and payload.
    package struct Frame: Sendable {
        /// 0x1 text, 0x8 close, 0xA pong, …
        package let opcode: UInt8
        /// The (unmasked) payload.
        package let payload: [UInt8]

        /// For a close frame: its status code.
        package var closeCode: Int? {
            opcode == 0x8 && payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : nil
        }

        /// For a close frame: its reason; for a text frame: its text.
        package var text: String {
            String(decoding: opcode == 0x8 ? Array(payload.dropFirst(2)) : payload, as: UTF8.self)
        }
    }

    /// The frames in `bytes`, after the HTTP response head that precedes
    /// them (the complete ones; a truncated last frame is left out).
    package static func serverFrames(after bytes: [UInt8]) -> [Frame] {
        var reader = ServerFrameReader()
        reader.append(bytes)
        var frames: [Frame] = []
        while let frame = reader.next() { frames.append(frame) }
        return frames
    }
}

/// Server frames read as the bytes come in: bytes go in as they are read
/// from a ``RawSocket``, complete frames come out in order, after the HTTP
/// response head that precedes the first.
package struct ServerFrameReader {
    private var bytes: [UInt8] = []
    private var index = 0
    private var afterHead = false

    /// A reader that has seen nothing yet.
    package init() {}

    /// Adds bytes read from the socket.
    package mutating func append(_ chunk: [UInt8]) {
        if index > 1 << 20 {
            bytes.removeFirst(index)
            index = 0
        }
        bytes += chunk
    }

    /// The next complete frame, or `nil` until more bytes come.
    package mutating func next() -> WireFrames.Frame? {
        if !afterHead {
            // The head is short: look for its blank line in the first few KiB only.
            guard let headEnd = (0..<max(0, min(bytes.count, 8_192) - 3)).first(where: {
                bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10
            }) else { return nil }
            index = headEnd + 4
            afterHead = true
        }
        guard index + 2 <= bytes.count else { return nil }
        let opcode = bytes[index] & 0x0F
        var length = Int(bytes[index + 1] & 0x7F)
        var start = index + 2
        if length == 126 {
            guard start + 2 <= bytes.count else { return nil }
            length = Int(bytes[start]) << 8 | Int(bytes[start + 1])
            start += 2
        } else if length == 127 {
            guard start + 8 <= bytes.count else { return nil }
            length = bytes[start..<start + 8].reduce(0) { $0 << 8 | Int($1) }
            start += 8
        }
        guard start + length <= bytes.count else { return nil }
        index = start + length
        return WireFrames.Frame(opcode: opcode, payload: Array(bytes[start..<start + length]))
    }
}
