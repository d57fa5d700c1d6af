import Synchronization
import Testing

@testable import StateSyncCore

/// A patch is decoded slice by slice: only the array elements and
/// dictionary entries it touches are decoded, and the result is the state
/// a whole decode gives.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct SliceDecoderTests {
    /// An element that counts how many times it is decoded.
    struct Item: Codable, Equatable {
        static let decodes = Mutex(0)
        var name: String

        init(name: String) { self.name = name }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            Self.decodes.withLock { $0 += 1 }
        }
    }

    struct Inventory: Codable, Equatable, SlicedState {
        var items: [Item]
        var tags: [String: Item]
        var title: String

        static var slices: [StateSlice<Inventory>] {
            [StateSlice(\.items, at: "items"), StateSlice(\.tags, at: "tags"), StateSlice(\.title, at: "title")]
        }
    }

    static let start = Inventory(items: (0..<100).map { Item(name: "item \($0)") }, tags: ["a": Item(name: "a"), "b": Item(name: "b")], title: "stock")

    static func pointer(_ tokens: String...) -> JSONPointer { JSONPointer(tokens: tokens) }

    static let cases: [(name: String, ops: [JSONPatchOperation], decodes: Int, changed: Set<Int>?)] = [
        ("a field inside one element", [.replace(path: pointer("items", "3", "name"), value: "renamed")], 1, [0]),
        ("an element appended", [.add(path: pointer("items", "-"), value: ["name": "new"])], 1, [0]),
        ("an element inserted and one removed", [.add(path: pointer("items", "0"), value: ["name": "first"]), .remove(path: pointer("items", "50"))], 1, [0]),
        ("one dictionary entry", [.replace(path: pointer("tags", "a", "name"), value: "A")], 1, [1]),
        ("an entry removed and a scalar member", [.remove(path: pointer("tags", "b")), .replace(path: pointer("title"), value: "sold")], 0, [1, 2]),
        ("the whole state", [.replace(path: .root, value: ["items": [], "tags": [:], "title": "empty"])], 0, nil),
    ]

    @Test(arguments: cases.indices)
    func aPatchDecodesOnlyWhatItTouches(index: Int) throws {
        let (name, ops, decodes, changed) = Self.cases[index]
        var document = try JSONValueEncoder().encode(Self.start)
        try JSONPatch(ops).apply(to: &document)
        var state = Self.start
        Item.decodes.withLock { $0 = 0 }
        let reported = try SliceDecoder(slices: Inventory.slices).apply(ops, document: document, to: &state)
        if changed != nil {
            #expect(Item.decodes.withLock { $0 } == decodes, "\(name)")
        }
        #expect(reported == changed, "\(name)")
        #expect(state == (try JSONValueDecoder().decode(Inventory.self, from: document)), "\(name)")
    }
}
