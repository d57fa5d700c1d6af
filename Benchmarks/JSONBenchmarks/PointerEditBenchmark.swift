import StateSyncCore

/// The cost of a JSON Pointer edit (`add` at `/todos/-`, then `remove` of
/// that element) on a document held once, by the size of its array: what
/// replaying a journal does to the server's mirror, where no earlier
/// revision shares the document. In place, it costs the same at every size;
/// a container copied on the way costs a chunk of the array or more.
enum PointerEditBenchmark {
    static let sizes = [100, 1_000, 10_000, 100_000]

    static func run() throws {
        Timing.printTableHead(
            "JSON Pointer add + remove in an array held once (ns per pair)",
            columns: ["elements", "add + remove through /todos", "the same on the bare JSONArray"]
        )
        let todo: JSONValue = ["id": "new", "title": .string(String(repeating: "x", count: 200)), "done": false]
        let end = try JSONPointer(parsing: "/todos/-")
        for size in sizes {
            let todos = JSONArray((0..<size).map { index -> JSONValue in
                ["id": .string("todo-\(index)"), "title": .string(String(repeating: "x", count: 200)), "done": false]
            })
            var document: JSONValue = ["title": "board", "todos": .array(todos), "presence": [:]]
            let last = try JSONPointer(parsing: "/todos/\(size)")
            let throughPointer = try Timing.bestNanoseconds(iterations: 20_000) {
                try document.add(todo, at: end)
                try document.remove(at: last)
            }
            var bare = todos
            let onArray = Timing.bestNanoseconds(iterations: 20_000) {
                bare.append(todo)
                bare.removeLast()
            }
            blackHole(document)
            blackHole(bare)
            print("| \(size) | \(Timing.format(throughPointer)) | \(Timing.format(onArray)) |")
        }
    }
}
