import StateSyncCore
import StateSyncProtocol
import Testing

@Suite("PatchFrames")
struct PatchFramesTests {
    static let ops = JSONPatch([
        .replace(path: JSONPointer(tokens: ["0", "done"]), value: true),
        .add(path: JSONPointer(tokens: ["-"]), value: ["id": "t9", "title": "Eggs", "done": false]),
    ])

    @Test("each spliced frame equals the encoder's frame for that id and base",
          arguments: [("s1", UInt64(1044)), ("", 0), ("quote\"and\\back", 7), ("ünï\u{1}", UInt64(Int64.max))])
    func matchesEncoder(id: String, base: UInt64) {
        let frames = PatchFrames(rev: 1045, ops: Self.ops)
        let expected = MessageEncoder().encode(ServerMessage.patch(id: id, base: base, rev: 1045, ops: Self.ops))
        #expect(frames.frame(id: id, base: base) == expected)
    }

    @Test("one PatchFrames serves many subscriptions with different ids and bases")
    func manySubscriptions() throws {
        let frames = PatchFrames(rev: 20, ops: Self.ops)
        let decoder = MessageDecoder()
        for (index, base) in [UInt64(12), 15, 19].enumerated() {
            let frame = frames.frame(id: "sub-\(index)", base: base)
            #expect(try decoder.decodeServerMessage(frame) == .patch(id: "sub-\(index)", base: base, rev: 20, ops: Self.ops))
        }
    }

    @Test("the shared part holds the serialized ops, rev and closing brace")
    func sharedPart() {
        let frames = PatchFrames(rev: 5, ops: JSONPatch([.remove(path: JSONPointer(tokens: ["a"]))]))
        let tail = #","rev":5,"ops":[{"op":"remove","path":"/a"}]}"#
        #expect(frames.sharedByteCount == tail.utf8.count)
        #expect(frames.rev == 5)
        #expect(String(decoding: frames.frame(id: "x", base: 4), as: UTF8.self) == #"{"type":"patch","id":"x","base":4"# + tail)
    }

    @Test("write appends after existing bytes")
    func writeAppends() {
        let frames = PatchFrames(rev: 2, ops: JSONPatch())
        var bytes = Array("[".utf8)
        frames.write(id: "a", base: 1, into: &bytes)
        frames.write(id: "b", base: 1, into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self)
            == #"[{"type":"patch","id":"a","base":1,"rev":2,"ops":[]}{"type":"patch","id":"b","base":1,"rev":2,"ops":[]}"#)
    }
}
