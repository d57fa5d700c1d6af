import StateSyncCore
import StateSyncLoad
import StateSyncProtocol

// Protocol coding benchmarks. Run: swift run -c release protocol-benchmarks
// Prints a markdown table for BENCHMARKS.md ("## JSON and the protocol").
//
// 1. Fan-out of one change to 1,000 subscriptions of one path: a full
//    `MessageEncoder` encode per subscription (baseline) against
//    `PatchFrames` (ops serialized once, spliced into each frame).
// 2. Decoding a `dispatch` message with `MessageDecoder` against parsing the
//    same bytes with `JSONParser` alone (baseline): the cost of the protocol
//    checks on top of JSON parsing.
// 3. What the load generator reads of each patch (id, base, rev): a full
//    `MessageDecoder` decode (baseline) against `PatchScanner`.

let subscribers = 1_000

/// A patch adding `count` todos: about 60 bytes of ops per todo.
func addTodos(_ count: Int) -> JSONPatch {
    JSONPatch((0..<count).map { index in
        .add(path: JSONPointer(tokens: ["-"]), value: ["id": .string("t\(index)"), "title": "Buy milk and eggs", "done": false])
    })
}

/// Frames per second sending `ops` to every subscriber by encoding each frame in full.
func encodeEach(_ ops: JSONPatch) -> Double {
    let encoder = MessageEncoder()
    var bytes: [UInt8] = []
    return Timing.rate(items: subscribers) {
        for index in 0..<subscribers {
            bytes.removeAll(keepingCapacity: true)
            encoder.encode(ServerMessage.patch(id: "sub-\(index)", base: 1044, rev: 1045, ops: ops), into: &bytes)
            Timing.consume(bytes.count)
        }
    }
}

/// Frames per second sending `ops` to every subscriber with one `PatchFrames`.
func splice(_ ops: JSONPatch) -> Double {
    var bytes: [UInt8] = []
    return Timing.rate(items: subscribers) {
        let frames = PatchFrames(rev: 1045, ops: ops)
        for index in 0..<subscribers {
            bytes.removeAll(keepingCapacity: true)
            frames.write(id: "sub-\(index)", base: 1044, into: &bytes)
            Timing.consume(bytes.count)
        }
    }
}

let dispatchText = Array(#"{"type":"dispatch","id":"a17","action":{"type":"renameTodo","id":"t7","title":"Buy oat milk, eggs and bread"}}"#.utf8)

/// Messages per second parsed as plain JSON.
func parseOnly() -> Double {
    let parser = JSONParser()
    return Timing.rate(items: 10_000) {
        for _ in 0..<10_000 {
            do {
                Timing.consume(try parser.parse(dispatchText).objectValue?.count ?? 0)
            } catch {
                fatalError("benchmark input must parse: \(error)")
            }
        }
    }
}

/// Messages per second decoded as protocol messages.
func decodeMessages() -> Double {
    let decoder = MessageDecoder()
    return Timing.rate(items: 10_000) {
        for _ in 0..<10_000 {
            do {
                Timing.consume(try decoder.decodeClientMessage(dispatchText).id?.utf8.count ?? 0)
            } catch {
                fatalError("benchmark input must decode: \(error)")
            }
        }
    }
}

/// Patches per second whose `id`, `base` and `rev` are read from `frame` by a full decode.
func decodeHeaders(_ frame: [UInt8]) -> Double {
    let decoder = MessageDecoder()
    return Timing.rate(items: 10_000) {
        for _ in 0..<10_000 {
            do {
                guard case let .patch(id, base, rev, _) = try decoder.decodeServerMessage(frame) else { fatalError("not a patch") }
                Timing.consume(id.utf8.count &+ Int(base &+ rev))
            } catch {
                fatalError("benchmark input must decode: \(error)")
            }
        }
    }
}

/// Patches per second whose `id`, `base` and `rev` are scanned from `frame`.
func scanHeaders(_ frame: [UInt8]) -> Double {
    Timing.rate(items: 10_000) {
        for _ in 0..<10_000 {
            guard let header = PatchScanner.header(frame) else { fatalError("the scanner must read the patch") }
            Timing.consume(header.id.utf8.count &+ Int(header.base &+ header.rev))
        }
    }
}

print("| case | baseline | ours | ours / baseline |")
print("|---|---|---|---|")
for todos in [1, 10, 100] {
    let ops = addTodos(todos)
    let size = PatchFrames(rev: 1045, ops: ops).sharedByteCount
    let baseline = encodeEach(ops)
    let ours = splice(ops)
    print("| patch of \(todos) add op(s) (\(size)-byte shared part) to \(subscribers) subscriptions, frames/s | encode each: \(Timing.format(baseline)) | PatchFrames: \(Timing.format(ours)) | \(Timing.ratio(ours, baseline)) |")
}
let parsed = parseOnly()
let decoded = decodeMessages()
print("| decode a \(dispatchText.count)-byte `dispatch`, messages/s | JSONParser only: \(Timing.format(parsed)) | MessageDecoder: \(Timing.format(decoded)) | \(Timing.ratio(decoded, parsed)) |")
for (name, ops) in [("a counter's `replace`", JSONPatch([.replace(path: JSONPointer(tokens: ["hits"]), value: 1_045)])), ("10 add ops", addTodos(10))] {
    let frame = PatchFrames(rev: 1045, ops: ops).frame(id: "s0", base: 1044)
    let baseline = decodeHeaders(frame)
    let ours = scanHeaders(frame)
    print("| read id, base, rev of a \(frame.count)-byte patch (\(name)), patches/s | MessageDecoder: \(Timing.format(baseline)) | PatchScanner: \(Timing.format(ours)) | \(Timing.ratio(ours, baseline)) |")
}
