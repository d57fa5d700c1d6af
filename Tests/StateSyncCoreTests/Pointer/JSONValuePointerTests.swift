import Testing
import StateSyncCore

@Suite struct JSONValuePointerTests {
    private func pointer(_ text: String) throws -> JSONPointer {
        try JSONPointer(parsing: text)
    }

    @Test func addCreatesMembersInsertsElementsAndReplacesTheRoot() throws {
        var document: JSONValue = ["list": [1, 3], "obj": [:]]
        try document.add(2, at: pointer("/list/1"))
        try document.add(4, at: pointer("/list/-"))
        try document.add(0, at: pointer("/list/0"))
        try document.add("v", at: pointer("/obj/k"))
        try document.add("w", at: pointer("/obj/k"))
        #expect(document == ["list": [0, 1, 2, 3, 4], "obj": ["k": "w"]])
        try document.add(5, at: pointer("/list/5"))
        #expect(document["list"]?.arrayValue?.count == 6)
        try document.add("root", at: .root)
        #expect(document == "root")
    }

    @Test func removeAndReplaceRequireAnExistingTarget() throws {
        var document: JSONValue = ["list": [1, 2, 3], "obj": ["k": true]]
        #expect(try document.remove(at: pointer("/list/1")) == 2)
        #expect(try document.remove(at: pointer("/obj/k")) == true)
        try document.replace(at: pointer("/list/0"), with: "x")
        #expect(document == ["list": ["x", 3], "obj": [:]])
        try document.replace(at: .root, with: nil)
        #expect(document == nil)
    }

    @Test(arguments: [
        ("add", "/missing/x", "path does not exist: /missing"),
        ("add", "/list/4", "index 4 is out of range for the array at /list (count 3)"),
        ("add", "/list/01", "\"01\" is not a valid index into the array at /list"),
        ("add", "/scalar/x", "path does not exist: /scalar is a number, not an object or array"),
        ("remove", "/list/3", "index 3 is out of range for the array at /list (count 3)"),
        ("remove", "/list/-", "\"-\" names no existing element of the array at /list"),
        ("remove", "/obj/nope", "path does not exist: /obj/nope"),
        ("remove", "", "cannot remove the whole document"),
        ("replace", "/obj/nope", "path does not exist: /obj/nope"),
        ("replace", "/list/x/y", "\"x\" is not a valid index into the array at /list"),
        ("replace", "/list/-", "\"-\" names no existing element of the array at /list"),
        ("replace", "/list/0/deeper", "path does not exist: /list/0 is a number, not an object or array"),
    ])
    func failuresNameTheOffendingPath(op: String, path: String, message: String) throws {
        var document: JSONValue = ["list": [1, 2, 3], "obj": ["k": true], "scalar": 1]
        let original = document
        let target = try pointer(path)
        let error = #expect(throws: JSONPointerError.self) {
            switch op {
            case "add": try document.add(0, at: target)
            case "remove": try document.remove(at: target)
            default: try document.replace(at: target, with: 0)
            }
        }
        #expect(error?.description == message)
        #expect(document == original)
    }

    @Test func mutationCopiesOnlyThePathTouched() throws {
        let original: JSONValue = ["a": ["x": [1, 2]], "b": ["y": [3]]]
        var changed = original
        try changed.replace(at: pointer("/a/x/0"), with: 9)
        #expect(original["a"]?["x"]?[0] == 1)
        #expect(changed["a"]?["x"]?[0] == 9)
        #expect(changed["b"]!.isIdentical(to: original["b"]!))
    }
}
