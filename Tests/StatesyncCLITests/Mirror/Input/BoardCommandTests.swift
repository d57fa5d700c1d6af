import BoardApp
import StateSyncCore
import Testing
@testable import statesync

/// The `mirror` command line's language.
@Suite struct BoardCommandTests {
    @Test(arguments: [
        ("add Milk and eggs", BoardAction.addTodo(title: "Milk and eggs")),
        ("  add   Milk  ", .addTodo(title: "Milk")),
        ("toggle t3", .toggleTodo(id: "t3")),
        ("toggle 3", .toggleTodo(id: "t3")),
        ("done t3", .toggleTodo(id: "t3")),
        ("rm t3", .removeTodo(id: "t3")),
        ("rename t3 Oat milk", .renameTodo(id: "t3", title: "Oat milk")),
        ("clear", .clearCompleted),
        ("inc hits", .increment(counter: "hits", by: 1)),
        ("inc hits -4", .increment(counter: "hits", by: -4)),
        ("dec hits 2", .increment(counter: "hits", by: -2)),
        ("reset hits", .resetCounter(counter: "hits")),
        ("say hello  there", .postMessage(text: "hello  there")),
        ("SAY hi", .postMessage(text: "hi")),
        ("prio t3 high", .setPriority(id: "t3", priority: .high)),
        ("priority 3 LOW", .setPriority(id: "t3", priority: .low)),
    ])
    func actions(line: String, action: BoardAction) throws {
        #expect(try BoardCommand(parsing: line) == .dispatch(action.wireValue))
    }

    @Test func otherCommands() throws {
        #expect(try BoardCommand(parsing: "help") == .help)
        #expect(try BoardCommand(parsing: "quit") == .quit)
        #expect(try BoardCommand(parsing: "q") == .quit)
        #expect(try BoardCommand(parsing: "   ") == .nothing)
        #expect(try BoardCommand(parsing: #"{"type":"postMessage","text":"raw"}"#) == .dispatch(["type": "postMessage", "text": "raw"]))
    }

    @Test(arguments: [
        ("fly", "unknown command \"fly\": type help"),
        ("add", "usage: add TITLE"),
        ("toggle", "usage: toggle ID"),
        ("toggle t1 t2", "usage: toggle ID"),
        ("prio t3", "usage: prio ID low|normal|high"),
        ("prio t3 urgent", "usage: prio ID low|normal|high"),
        ("rename t3", "usage: rename ID TITLE"),
        ("inc", "usage: inc NAME [N]"),
        ("inc hits lots", "\"lots\" is not a whole number"),
        ("dec hits -9223372036854775808", "is not a whole number"),
        ("reset", "usage: reset NAME"),
        ("{nope", "the action is not valid JSON"),
    ])
    func errors(line: String, message: String) {
        #expect {
            try BoardCommand(parsing: line)
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}
