import StateSyncCore
import StateSyncProtocol
import StateSyncTestSupport
import Testing
@testable import StateSyncLoad

@Suite(.timeLimit(.minutes(1))) struct PatchScannerTests {
    /// What the full decoder says of `bytes`, as a header (`nil`: not a patch).
    static func decodedHeader(_ bytes: [UInt8]) throws -> PatchHeader? {
        guard case let .patch(id, base, rev, _) = try MessageDecoder().decodeServerMessage(bytes) else { return nil }
        return PatchHeader(id: id, base: base, rev: rev)
    }

    /// Strings a naive search for a key would be fooled by.
    static let traps = [
        #""rev":99"#, #""base":7,"rev":8"#, #""type":"ack""#, #"{"id":"s9"}"#, "\\", "\"", "}", "]", "{[", "é€😀", "",
    ]

    /// A seeded generator (SplitMix64): random but repeatable messages.
    struct Random: RandomNumberGenerator {
        private var generator: SeededGenerator

        init(state: UInt64) {
            generator = SeededGenerator(seed: state)
        }

        mutating func next() -> UInt64 { generator.next() }

        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

        mutating func space() -> String { ["", "", " ", "\n  ", "\t"][below(5)] }

        /// A value holding trap strings and keys, nested up to `depth`.
        mutating func value(depth: Int) -> JSONValue {
            switch depth == 0 ? below(4) : below(6) {
            case 0: return .string(PatchScannerTests.traps[below(PatchScannerTests.traps.count)])
            case 1: return .integer(Int64(bitPattern: next()))
            case 2: return [.null, .bool(true), .double(-1.5e-3)][below(3)]
            case 3: return .string("plain")
            case 4: return .array((0..<below(4)).map { _ in value(depth: depth - 1) })
            default:
                var object = JSONObject()
                for _ in 0..<below(4) {
                    object[["rev", "base", "type", "id", "ops", "x"][below(6)]] = value(depth: depth - 1)
                }
                return .object(object)
            }
        }

        /// A patch message with its members in random order, random
        /// spacing, and sometimes a member the decoder does not know.
        mutating func patchMessage() -> (bytes: [UInt8], header: PatchHeader) {
            let header = PatchHeader(id: "s\(below(1_000))", base: next() >> UInt64(1 + below(63)), rev: next() >> UInt64(1 + below(63)))
            let ops = JSONValue.array((0..<below(3)).map { _ in
                ["op": "replace", "path": "/counters/hits", "value": value(depth: 3)]
            })
            var members = [
                #""type":"# + space() + #""patch""#,
                #""id":"# + space() + "\"\(header.id)\"",
                #""base":"# + space() + "\(header.base)",
                #""rev":"# + space() + "\(header.rev)",
                #""ops":"# + space() + ops.description,
            ]
            if below(3) == 0 { members.append(#""note":"# + space() + value(depth: 2).description) }
            members.shuffle(using: &self)
            let text = space() + "{" + space() + members.joined(separator: space() + "," + space()) + space() + "}" + space()
            return (Array(text.utf8), header)
        }
    }

    @Test func agreesWithTheFullDecoderOnRandomPatches() throws {
        var random = Random(state: 0x5EED)
        for _ in 0..<2_000 {
            let (bytes, header) = random.patchMessage()
            let decoded = try Self.decodedHeader(bytes)
            #expect(decoded == header, "the generator built \(String(decoding: bytes, as: UTF8.self))")
            #expect(PatchScanner.header(bytes) == decoded, "\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    @Test func readsTheServersOwnPatchFrames() throws {
        var random = Random(state: 42)
        for _ in 0..<200 {
            let ops = try JSONPatch(jsonValue: [["op": "add", "path": "/a", "value": random.value(depth: 3)]])
            let rev = random.next() >> 1
            let frames = PatchFrames(rev: rev, ops: ops)
            for (id, base) in [("s0", max(rev, 1) - 1), ("x\"y", 0), ("s12", UInt64(0))] {
                let bytes = frames.frame(id: id, base: base)
                let scanned = PatchScanner.header(bytes)
                // An id with an escape is left to the full decoder.
                #expect(scanned == (id.contains("\"") ? nil : try Self.decodedHeader(bytes)))
            }
            let encoded = MessageEncoder().encode(.patch(id: "s1", base: 3, rev: rev, ops: ops))
            #expect(PatchScanner.header(encoded) == PatchHeader(id: "s1", base: 3, rev: rev))
        }
    }

    @Test func readsTheStoreOfAPatchOfAnotherStore() throws {
        let ops = try JSONPatch(jsonValue: [["op": "replace", "path": "", "value": 1]])
        let encoded = MessageEncoder(store: try StoreName("bench-3")).encode(.patch(id: "s0", base: 4, rev: 5, ops: ops))
        #expect(String(decoding: encoded, as: UTF8.self).contains(#""store":"bench-3""#))
        #expect(PatchScanner.header(encoded) == PatchHeader(id: "s0", base: 4, rev: 5, store: "bench-3"))
        #expect(PatchScanner.header(Array(#"{"type":"patch","store":7,"id":"s0","base":1,"rev":2,"ops":[]}"#.utf8)) == nil)
    }

    @Test(arguments: [
        #"{"type":"ack","id":"a1","rev":5}"#,
        #"{"type":"snapshot","id":"s0","rev":5,"value":{"type":"patch","id":"s0","base":4,"rev":5,"ops":[]}}"#,
        #"{"type":"welcome","session":"s-1","epoch":"e","rev":0,"role":"writer","server":"statesync"}"#,
        #"{"value":"{\"type\":\"patch\",\"id\":\"s0\",\"base\":1,\"rev\":2}","type":"value","id":"g1","rev":2}"#,
    ])
    func otherMessagesAreNoPatch(_ text: String) throws {
        let bytes = Array(text.utf8)
        #expect(try Self.decodedHeader(bytes) == nil)
        #expect(PatchScanner.header(bytes) == nil)
    }

    @Test(arguments: [
        #"{"type":"patch","id":"s\u0030","base":1,"rev":2,"ops":[]}"#,  // an escaped id
        #"{"type":"pa\u0074ch","id":"s0","base":1,"rev":2,"ops":[]}"#,  // an escaped type
        #"{"type":"patch","id":"s0","base":1.0,"rev":2,"ops":[]}"#,  // not a plain integer
        #"{"type":"patch","id":"s0","base":1,"rev":2e0,"ops":[]}"#,
        #"{"type":"patch","id":"s0","base":1,"rev":2,"rev":3,"ops":[]}"#,  // a repeated member
        #"{"type":"patch","id":"s0","base":1,"rev":99999999999999999999,"ops":[]}"#,  // beyond 64 bits
        #"{"type":"patch","id":"s0","base":1,"rev":9223372036854775808,"ops":[]}"#,  // beyond Int64.max
        #"{"type":"patch","id":"s0","base":01,"rev":2,"ops":[]}"#,  // a leading zero
        #"{"type":"patch","id":"s0","base":1,"rev":2,"ops":[]} x"#,  // something after the object
        #"{"type":"patch","id":"s0","base":1,"rev":2,"ops":["#,  // cut short
        #"{"type":"patch","id":"s0","base":1,"ops":[]}"#,  // no rev
    ])
    func whatItCannotReadIsLeftToTheDecoder(_ text: String) {
        #expect(PatchScanner.header(Array(text.utf8)) == nil)
    }
}
