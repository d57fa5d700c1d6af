import StateSyncCore
import Synchronization
import Testing

@testable import StateSyncClient

/// A typed mirror decodes what a change touched when its state is a
/// ``SlicedState``, all of it otherwise, and keeps its last good state when a
/// change does not decode.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct TypedMirrorTests {
    /// How many ``Item``s were decoded.
    static let decodes = Mutex(0)

    /// An element encoded as its name alone, counted in ``decodes`` when decoded.
    struct Item: Codable, Equatable, Sendable {
        var name: String

        init(name: String) { self.name = name }

        init(from decoder: any Decoder) throws {
            TypedMirrorTests.decodes.withLock { $0 += 1 }
            name = try decoder.singleValueContainer().decode(String.self)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(name)
        }
    }

    struct Shelf: Codable, Equatable, Sendable, SlicedState {
        var items: [Item]
        var title: String

        static var slices: [StateSlice<Shelf>] {
            [StateSlice(\.items, at: "items"), StateSlice(\.title, at: "title")]
        }
    }

    /// The same shape without slices.
    struct PlainShelf: Codable, Equatable, Sendable {
        var items: [Item]
        var title: String
    }

    static let start = Shelf(items: (0..<100).map { Item(name: "item \($0)") }, title: "stock")

    /// A mirror document holding ``start``, and a typed mirror of it.
    static func mirror<State: Decodable & Sendable>(as type: State.Type) throws -> (LocalStore<JSONValue>, TypedMirror<State>) {
        let document = try JSONValueEncoder().encode(Self.start)
        let source = LocalStore<JSONValue>(initialState: document)
        return (source, try TypedMirror<State>(mirror: source, pointer: .root, current: document))
    }

    /// Applies `ops` to the mirror document, as a server's patch does; returns the decodes it caused.
    static func change(_ source: LocalStore<JSONValue>, _ ops: [JSONPatchOperation]) throws -> Int {
        var document = source.state
        try JSONPatch(ops).apply(to: &document)
        decodes.withLock { $0 = 0 }
        source.performStateUpdate { [document] in $0 = document }
        return decodes.withLock { $0 }
    }

    static let renameThird: [JSONPatchOperation] = [.replace(path: JSONPointer(tokens: ["items", "3"]), value: "renamed")]

    @Test func aChangeToOneElementOfASlicedStateDecodesThatElementAlone() throws {
        let (source, mirror) = try Self.mirror(as: Shelf.self)
        let titles = Mutex(0)
        let token = mirror.subscribe(\.title) { _ in titles.withLock { $0 += 1 } }
        #expect(try Self.change(source, Self.renameThird) == 1)
        #expect(mirror.state.items[3].name == "renamed")
        #expect(mirror.state == (try JSONValueDecoder().decode(Shelf.self, from: source.state)))
        #expect(try Self.change(source, [.add(path: JSONPointer(tokens: ["items", "-"]), value: "new"),
                                         .replace(path: JSONPointer(tokens: ["title"]), value: "sold")]) == 1)
        #expect(mirror.state.items.count == 101)
        #expect(mirror.state == (try JSONValueDecoder().decode(Shelf.self, from: source.state)))
        #expect(titles.withLock { $0 } == 2, "the title's reader: its first value, then the one change of the title")
        _ = token
    }

    @Test func aStateWithoutSlicesIsDecodedWhole() throws {
        let (source, mirror) = try Self.mirror(as: PlainShelf.self)
        #expect(try Self.change(source, Self.renameThird) == 100)
        #expect(mirror.state.items[3].name == "renamed")
    }

    @Test func aChangeThatDoesNotDecodeKeepsTheLastStateUntilOneDoes() throws {
        let (source, mirror) = try Self.mirror(as: Shelf.self)
        _ = try Self.change(source, [.replace(path: JSONPointer(tokens: ["items", "3"]), value: 7)])
        #expect(mirror.state == Self.start)
        let error = try #require(mirror.decodingError)
        #expect("\(error)".contains("Shelf"))
        // The next change is taken from the last state that decoded: the bad element is decoded again.
        #expect(try Self.change(source, [.replace(path: JSONPointer(tokens: ["items", "3"]), value: "fixed"),
                                         .replace(path: JSONPointer(tokens: ["items", "9"]), value: "nine")]) == 2)
        #expect(mirror.decodingError == nil)
        #expect(mirror.state == (try JSONValueDecoder().decode(Shelf.self, from: source.state)))
    }
}
