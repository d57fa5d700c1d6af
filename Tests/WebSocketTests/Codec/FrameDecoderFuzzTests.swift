import NIOCore
import Testing
import WebSocket

/// Randomized inputs for the decoder and the connection: valid frame
/// streams with mutations, and pure noise, fed whole and in random chunks.
/// Each input must end in the same frames (or actions) and the same error
/// whatever the chunking, never buffer more than one maximal frame, and
/// finish (every loop step consumes bytes or stops).
@Suite(.timeLimit(.minutes(1))) struct FrameDecoderFuzzTests {
    private static let maxFrameSize = 4096

    /// The frames decoded, then the error that stopped decoding, if any.
    /// (How many bytes were still unread when it stopped depends on the chunking.)
    private struct Outcome: Equatable {
        var frames: [WebSocketFrame]
        var error: WebSocketProtocolError?
    }

    /// Decodes everything, feeding `chunks` one after another into one cumulation buffer.
    private func decode(_ chunks: [ArraySlice<UInt8>], role: WebSocketRole) -> Outcome {
        let decoder = FrameDecoder(role: role, maxFrameSize: Self.maxFrameSize, allowedReservedBits: .rsv1)
        var cumulation = ByteBuffer()
        var frames: [WebSocketFrame] = []
        for chunk in chunks {
            cumulation.writeBytes(chunk)
            do {
                while let frame = try decoder.decode(from: &cumulation) {
                    frames.append(frame)
                }
            } catch {
                return Outcome(frames: frames, error: error)
            }
            // Whatever is left is at most one incomplete frame.
            #expect(cumulation.readableBytes <= Self.maxFrameSize + FrameEncoder.maxHeaderLength)
        }
        return Outcome(frames: frames, error: nil)
    }

    private func split(_ bytes: [UInt8], using generator: inout SeededGenerator) -> [ArraySlice<UInt8>] {
        var chunks: [ArraySlice<UInt8>] = []
        var index = 0
        while index < bytes.count {
            let length = Int.random(in: 1...max(1, min(bytes.count - index, Bool.random(using: &generator) ? 3 : 700)), using: &generator)
            chunks.append(bytes[index..<(index + length)])
            index += length
        }
        return chunks
    }

    /// A stream of valid client frames of assorted kinds and sizes.
    private func validStream(using generator: inout SeededGenerator) -> [UInt8] {
        var encoder = FrameEncoder(role: .client, keys: WebSocketMaskingKeyGenerator(seed: generator.next()))
        var buffer = ByteBuffer()
        for _ in 0..<Int.random(in: 1...6, using: &generator) {
            let opcode = [WebSocketOpcode.text, .binary, .continuation, .ping, .pong, .close].randomElement(using: &generator)!
            let length = opcode.isControl ? Int.random(in: 0...125, using: &generator) : [0, 5, 125, 126, 300, 5000].randomElement(using: &generator)!
            let payload = ByteBuffer(bytes: (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            encoder.encode(WebSocketFrame(fin: opcode.isControl || Bool.random(using: &generator), opcode: opcode, payload: payload), into: &buffer)
        }
        return buffer.bytes
    }

    private func mutate(_ bytes: [UInt8], using generator: inout SeededGenerator) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<Int.random(in: 0...4, using: &generator) where !bytes.isEmpty {
            let index = Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: bytes[index] ^= UInt8(1) << UInt8.random(in: 0...7, using: &generator)
            case 1: bytes[index] = UInt8.random(in: 0...255, using: &generator)
            case 2: bytes.removeSubrange(index...)
            default: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: index)
            }
        }
        return bytes
    }

    @Test(arguments: 0..<4)
    func decoderIsSplitInvariant(batch: Int) {
        var generator = SeededGenerator(seed: 1000 + UInt64(batch))
        for _ in 0..<1000 {
            let bytes: [UInt8] =
                Bool.random(using: &generator)
                ? mutate(validStream(using: &generator), using: &generator)
                : (0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let role: WebSocketRole = Int.random(in: 0..<4, using: &generator) == 0 ? .client : .server
            let whole = decode([bytes[...]], role: role)
            for _ in 0..<3 {
                let chunks = split(bytes, using: &generator)
                #expect(decode(chunks, role: role) == whole, "input \(bytes.prefix(32))… (\(bytes.count) bytes)")
            }
        }
    }

    /// Runs a server connection over the chunks, with compression on, collecting actions.
    private func connect(_ chunks: [ArraySlice<UInt8>]) -> [WebSocketConnectionAction] {
        var machine = WebSocketConnectionStateMachine(
            role: .server,
            configuration: WebSocketConfiguration(maxFrameSize: Self.maxFrameSize, maxMessageSize: 8192),
            deflate: PerMessageDeflateParameters(),
            now: .uptimeNanoseconds(0)
        )
        var cumulation = ByteBuffer()
        var actions: [WebSocketConnectionAction] = []
        for chunk in chunks {
            cumulation.writeBytes(chunk)
            while let action = machine.read(from: &cumulation, now: .uptimeNanoseconds(0)) {
                actions.append(action)
            }
        }
        // A server's close frames are unmasked, so the actions compare byte for byte.
        return actions
    }

    @Test(arguments: 0..<2)
    func connectionIsSplitInvariant(batch: Int) {
        var generator = SeededGenerator(seed: 2000 + UInt64(batch))
        for _ in 0..<500 {
            let bytes = mutate(validStream(using: &generator), using: &generator)
            let whole = connect([bytes[...]])
            let chunked = connect(split(bytes, using: &generator))
            #expect(chunked == whole, "input \(bytes.prefix(32))… (\(bytes.count) bytes)")
        }
    }
}
