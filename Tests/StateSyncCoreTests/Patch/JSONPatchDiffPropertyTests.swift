import Testing
import StateSyncCore

@Suite struct JSONPatchDiffPropertyTests {
    @Test(arguments: 0..<4)
    func applyingTheDiffOfUnrelatedDocumentsGivesTheTarget(seed: Int) throws {
        var random = RandomJSON(seed: UInt64(seed))
        for _ in 0..<500 {
            try Self.expectDiffApplies(from: random.value(depth: 4), to: random.value(depth: 4))
        }
    }

    @Test(arguments: 0..<4)
    func applyingTheDiffOfMutatedDocumentsGivesTheTarget(seed: Int) throws {
        var random = RandomJSON(seed: UInt64(100 + seed))
        for _ in 0..<500 {
            let old = random.value(depth: 5)
            try Self.expectDiffApplies(from: old, to: random.mutate(old, edits: 1 + random.below(4)))
        }
    }

    @Test(arguments: 0..<2)
    func applyingAFocusedDiffToTheFocusedValueGivesTheNewFocusedValue(seed: Int) throws {
        var random = RandomJSON(seed: UInt64(200 + seed))
        for _ in 0..<500 {
            let old = random.value(depth: 5)
            let new = random.mutate(old, edits: 1 + random.below(3))
            for pointer in Self.pointers(in: old, random: &random) {
                let patch = JSONPatch.diff(from: old, to: new, at: pointer)
                let focusedOld = old[pointer] ?? .null
                let focusedNew = new[pointer] ?? .null
                #expect(try patch.applied(to: focusedOld) == focusedNew, "at \(pointer): \(patch)")
            }
        }
    }

    @Test func itemArraysGiveSmallPatches() throws {
        var random = RandomJSON(seed: 7)
        for _ in 0..<200 {
            let old = JSONValue.array(random.items(count: 50, depth: 1))
            var values = old.arrayValue!
            values.insert(random.item(depth: 1), at: random.below(values.count + 1))
            values.remove(at: random.below(values.count))
            let new = JSONValue.array(values)
            let patch = JSONPatch.diff(from: old, to: new)
            #expect(try patch.applied(to: old) == new)
            #expect(patch.operations.count <= 2, "\(patch)")
        }
    }

    /// Checks that the diff turns `old` into `new`, also after a round trip
    /// through the patch's wire form.
    private static func expectDiffApplies(from old: JSONValue, to new: JSONValue) throws {
        let patch = JSONPatch.diff(from: old, to: new)
        #expect(try patch.applied(to: old) == new, "\(old) -> \(new): \(patch)")
        let reparsed = try JSONPatch(jsonValue: JSONValue(parsing: patch.description))
        #expect(try reparsed.applied(to: old) == new)
    }

    /// A few pointers into `value`, some of them to places that do not
    /// exist (which count as `null`).
    private static func pointers(in value: JSONValue, random: inout RandomJSON) -> [JSONPointer] {
        var result: [JSONPointer] = [.root, JSONPointer(tokens: ["absent"])]
        var current = value
        var pointer = JSONPointer.root
        while true {
            switch current {
            case .object(let object) where !object.isEmpty:
                let key = object[random.below(object.count)].key
                pointer = pointer.appending(key)
                current = object[key]!
            case .array(let values) where !values.isEmpty:
                let index = random.below(values.count)
                pointer = pointer.appending(index: index)
                current = values[index]
            default:
                return result
            }
            result.append(pointer)
        }
    }
}
