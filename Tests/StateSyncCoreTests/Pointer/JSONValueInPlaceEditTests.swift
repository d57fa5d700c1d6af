import Testing
import OrderedCollections
@testable import StateSyncCore

/// An edit through a JSON Pointer changes a document held once in place:
/// the containers on the way keep their buffers. (Copying one on every edit
/// made a journal's replay copy a chunk list, or a whole flat array, per
/// entry.) Each check compares a buffer's address before and after one
/// edit; a copy allocates a new buffer while the old one is still alive.
@Suite struct JSONValueInPlaceEditTests {
    private static let todos = try! JSONPointer(parsing: "/todos")

    /// The address of the buffer holding `document`'s todos: the chunk list
    /// of a chunked array, the elements of a flat one.
    private func todosBuffer(_ document: JSONValue) -> UnsafeRawPointer? {
        guard case .array(let values)? = document[Self.todos] else { return nil }
        return values.isChunked
            ? values.chunks.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
            : values.flat.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    /// The address of the values buffer of `document`'s flat root object.
    private func rootValues(_ document: JSONValue) -> UnsafeRawPointer? {
        guard case .object(let object) = document, case .flat(let dictionary) = object.storage else { return nil }
        return dictionary.values.elements.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    private func board(todos count: Int) -> JSONValue {
        ["title": "board", "todos": .array((0..<count).map { JSONValue.integer(Int64($0)) }), "presence": [:]]
    }

    @Test(arguments: [100, 1_000])
    func anAddAndARemoveKeepTheArraysBuffers(count: Int) throws {
        var document = board(todos: count)
        // Room for one more, so that growing does not move a flat buffer either.
        if case .array(var values)? = document[Self.todos], !values.isChunked {
            values.reserveCapacity(count + 1)
            document["todos"] = .array(values)
        }
        let array = try #require(todosBuffer(document))
        let root = try #require(rootValues(document))
        try document.add(-1, at: JSONPointer(parsing: "/todos/-"))
        #expect(todosBuffer(document) == array)
        #expect(rootValues(document) == root)
        #expect(try document.remove(at: JSONPointer(parsing: "/todos/\(count)")) == -1)
        #expect(todosBuffer(document) == array)
        #expect(rootValues(document) == root)
        #expect(document == board(todos: count))
    }

    @Test func aReplaceDeepInsideKeepsEveryBufferOnTheWay() throws {
        var document = board(todos: 1_000)
        let array = try #require(todosBuffer(document))
        let root = try #require(rootValues(document))
        try document.replace(at: JSONPointer(parsing: "/todos/500"), with: "changed")
        #expect(todosBuffer(document) == array)
        #expect(rootValues(document) == root)
        #expect(document[try JSONPointer(parsing: "/todos/500")] == "changed")
    }

    @Test func anotherCopyStillSeesTheDocumentAsItWas() throws {
        var document = board(todos: 1_000)
        let before = document
        try document.add(-1, at: JSONPointer(parsing: "/todos/0"))
        try document.replace(at: JSONPointer(parsing: "/title"), with: "renamed")
        #expect(before == board(todos: 1_000))
        #expect(document[try JSONPointer(parsing: "/todos/0")] == -1)
        #expect(todosBuffer(document) != todosBuffer(before))
    }
}
