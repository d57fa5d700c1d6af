// Frame codec throughput, as ratios against memcpy of the same bytes in the same run.
//
//     swift run -c release websocket-codec-benchmarks
//
// Sizes may be given as arguments (default 16 1024 65536 1048576). For each
// payload size it builds a stream of masked client frames (12 MiB of
// payload), then times, best of 9 rounds:
// - memcpy: copying each frame's payload bytes out of the stream into a
//   reused buffer (the baseline: the same bytes, the same chunks);
// - parse + unmask: a server's FrameDecoder reading every frame, which
//   unmasks each payload into a new buffer;
// - parse unmasked: a client's FrameDecoder reading unmasked frames, whose
//   payloads are zero-copy slices, so it is given in frames per second;
// - unmask in place: WebSocketMaskingKey.unmask over one payload, the XOR kernel alone;
// - encode server / client: FrameEncoder writing the frames (client: masked).

import Foundation
import NIOCore
import WebSocket

let sizes = CommandLine.arguments.count > 1 ? CommandLine.arguments.dropFirst().compactMap { Int($0) } : [16, 1024, 64 * 1024, 1024 * 1024]
// 12 MiB keeps every frame below offset 16 MiB of the stream: beyond that
// NIO cannot slice a ByteBuffer and copies instead, which would be measured too.
let totalPayload = 12 << 20
let rounds = 9

/// Runs `body` `rounds` times; returns the best time in seconds.
func best(_ body: () -> Int, sink: inout Int) -> Double {
    var bestTime = Double.infinity
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        sink &+= body()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        bestTime = min(bestTime, elapsed)
    }
    return bestTime
}

func megabytesPerSecond(_ bytes: Int, _ seconds: Double) -> Double {
    Double(bytes) / seconds / 1e6
}

var sink = 0
print("| payload | frames | memcpy MB/s | parse+unmask MB/s | ratio | parse unmasked M frames/s | unmask in place MB/s | encode server MB/s | encode client MB/s |")
print("|---|---|---|---|---|---|---|---|---|")
for size in sizes {
    let count = max(1, totalPayload / size)
    let payload = ByteBuffer(bytes: (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    var clientEncoder = FrameEncoder(role: .client, keys: WebSocketMaskingKeyGenerator(seed: 1))
    var serverEncoder = FrameEncoder(role: .server)
    var masked = ByteBuffer()
    var unmasked = ByteBuffer()
    for _ in 0..<count {
        clientEncoder.encode(WebSocketFrame(opcode: .binary, payload: payload), into: &masked)
        serverEncoder.encode(WebSocketFrame(opcode: .binary, payload: payload), into: &unmasked)
    }
    let streamBytes = masked.readableBytes
    let payloadBytes = count * size

    // The baseline: memcpy of each frame's payload bytes (same offsets in the
    // same stream) into one reused buffer of the payload's size.
    let frameStride = streamBytes / count
    let headerLength = frameStride - size
    var destination = [UInt8](repeating: 0, count: size)
    let memcpyTime = best({
        masked.withUnsafeReadableBytes { source in
            destination.withUnsafeMutableBytes { target in
                for index in 0..<count {
                    target.baseAddress!.copyMemory(from: source.baseAddress! + index * frameStride + headerLength, byteCount: size)
                }
            }
        }
        return Int(destination[size - 1])
    }, sink: &sink)

    let key = WebSocketMaskingKey(1, 2, 3, 4)
    var inPlace = payload
    let inPlaceTime = best({
        for _ in 0..<count { key.unmask(&inPlace) }
        return inPlace.readableBytes
    }, sink: &sink)

    let serverDecoder = FrameDecoder(role: .server, maxFrameSize: 2 << 20)
    let parseTime = best({
        var input = masked
        var checksum = 0
        while let frame = try! serverDecoder.decode(from: &input) {
            checksum &+= Int(frame.payload.getInteger(at: frame.payload.readerIndex + size - 1, as: UInt8.self)!)
        }
        return checksum
    }, sink: &sink)

    let clientDecoder = FrameDecoder(role: .client, maxFrameSize: 2 << 20)
    let parseUnmaskedTime = best({
        var input = unmasked
        var checksum = 0
        while let frame = try! clientDecoder.decode(from: &input) {
            checksum &+= frame.payload.readableBytes
        }
        return checksum
    }, sink: &sink)

    var output = ByteBuffer()
    output.reserveCapacity(streamBytes + 16)
    func timeEncoding(with encoder: inout FrameEncoder) -> Double {
        best({
            output.clear()
            for _ in 0..<count { encoder.encode(WebSocketFrame(opcode: .binary, payload: payload), into: &output) }
            return output.readableBytes
        }, sink: &sink)
    }
    let encodeServerTime = timeEncoding(with: &serverEncoder)
    let encodeClientTime = timeEncoding(with: &clientEncoder)

    let memcpyRate = megabytesPerSecond(streamBytes, memcpyTime)
    let parseRate = megabytesPerSecond(payloadBytes, parseTime)
    print(
        "| \(size) B | \(count) | \(String(format: "%.0f", memcpyRate)) | \(String(format: "%.0f", parseRate)) | "
            + "\(String(format: "%.2f", parseRate / memcpyRate)) | "
            + "\(String(format: "%.1f", Double(count) / parseUnmaskedTime / 1e6)) | "
            + "\(String(format: "%.0f", megabytesPerSecond(payloadBytes, inPlaceTime))) | "
            + "\(String(format: "%.0f", megabytesPerSecond(payloadBytes, encodeServerTime))) | "
            + "\(String(format: "%.0f", megabytesPerSecond(payloadBytes, encodeClientTime))) |"
    )
}
print("(checksum \(sink & 0xFFFF))")
