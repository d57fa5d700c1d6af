import BoardApp
import StateSyncCore
import StateSyncProtocol
import Testing

@Suite("BoardAction: wire form")
struct BoardActionWireTests {
    static let actions: [BoardAction] = [
        .addTodo(title: "Milk"), .toggleTodo(id: "t7"), .renameTodo(id: "t7", title: "Oat milk"), .removeTodo(id: "t7"),
        .clearCompleted, .increment(counter: "hits", by: -5), .resetCounter(counter: "hits"), .postMessage(text: "hi 👋"),
        .setPriority(id: "t7", priority: .low), .setPriority(id: "t7", priority: .high),
        .rolled(by: "alice", sides: 6, result: 4),
    ]

    @Test("every action round-trips through its wire object", arguments: actions)
    func roundTrip(_ action: BoardAction) throws {
        #expect(try BoardAction(wireValue: action.wireValue) == action)
        #expect(action.wireValue["type"] == .string(action.type))
    }

    @Test("rolled has the documented wire form and is not a type clients dispatch")
    func rolledWireForm() {
        let rolled = BoardAction.rolled(by: "alice", sides: 6, result: 4)
        #expect(JSONSerializer().string(for: .object(rolled.wireValue)) == #"{"by":"alice","result":4,"sides":6,"type":"rolled"}"#)
        #expect(!BoardAction.types.contains("rolled"))
    }

    @Test("the protocol's shapes decode", arguments: [
        (#"{"type":"addTodo","title":"Milk"}"#, BoardAction.addTodo(title: "Milk")),
        (#"{"type":"toggleTodo","id":"t7"}"#, .toggleTodo(id: "t7")),
        (#"{"type":"renameTodo","id":"t7","title":"Eggs"}"#, .renameTodo(id: "t7", title: "Eggs")),
        (#"{"type":"removeTodo","id":"t7"}"#, .removeTodo(id: "t7")),
        (#"{"type":"clearCompleted"}"#, .clearCompleted),
        (#"{"type":"increment","counter":"hits"}"#, .increment(counter: "hits", by: 1)),
        (#"{"type":"increment","counter":"hits","by":-4}"#, .increment(counter: "hits", by: -4)),
        (#"{"type":"increment","counter":"hits","by":2.0}"#, .increment(counter: "hits", by: 2)),
        (#"{"type":"resetCounter","counter":"hits"}"#, .resetCounter(counter: "hits")),
        (#"{"type":"postMessage","text":"hi","from":"mallory"}"#, .postMessage(text: "hi")),
        (#"{"type":"setPriority","id":"t7","priority":"normal"}"#, .setPriority(id: "t7", priority: .normal)),
        (#"{"type":"rolled","by":"alice","sides":6,"result":4}"#, .rolled(by: "alice", sides: 6, result: 4)),
    ])
    func decodes(text: String, action: BoardAction) throws {
        let object = try #require(try JSONValue(parsing: text).objectValue)
        #expect(try BoardAction(wireValue: object) == action)
    }

    @Test("objects that are no board action are invalid_action naming the problem", arguments: [
        (#"{"title":"Milk"}"#,
         #"an action needs a string field "type" (one of addTodo, toggleTodo, renameTodo, removeTodo, clearCompleted, increment, resetCounter, setPriority, postMessage)"#),
        (#"{"type":3}"#, #"field "type" of an action must be a string, found a number (3)"#),
        (#"{"type":"fly"}"#,
         #"unknown action type "fly" (expected one of addTodo, toggleTodo, renameTodo, removeTodo, clearCompleted, increment, resetCounter, setPriority, postMessage)"#),
        (#"{"type":"sessionJoined","session":{"id":"s-1","name":"x"}}"#,
         #"unknown action type "sessionJoined" (expected one of addTodo, toggleTodo, renameTodo, removeTodo, clearCompleted, increment, resetCounter, setPriority, postMessage)"#),
        (#"{"type":"addTodo"}"#, #"action addTodo needs field "title" (a string)"#),
        (#"{"type":"addTodo","title":null}"#, #"field "title" of action addTodo must be a string, found null"#),
        (#"{"type":"toggleTodo","id":7}"#, #"field "id" of action toggleTodo must be a string, found a number (7)"#),
        (#"{"type":"renameTodo","id":"t1"}"#, #"action renameTodo needs field "title" (a string)"#),
        (#"{"type":"removeTodo"}"#, #"action removeTodo needs field "id" (a string)"#),
        (#"{"type":"increment"}"#, #"action increment needs field "counter" (a string)"#),
        (#"{"type":"increment","counter":"hits","by":1.5}"#, #"field "by" of action increment must be a 64-bit integer, found a number (1.5)"#),
        (#"{"type":"increment","counter":"hits","by":"2"}"#, #"field "by" of action increment must be a 64-bit integer, found a string ("2")"#),
        (#"{"type":"increment","counter":"hits","by":1e30}"#, #"field "by" of action increment must be a 64-bit integer, found a number (1e+30)"#),
        (#"{"type":"resetCounter","counter":[]}"#, #"field "counter" of action resetCounter must be a string, found an array"#),
        (#"{"type":"postMessage"}"#, #"action postMessage needs field "text" (a string)"#),
        (#"{"type":"say","text":"hi"}"#,
         #"unknown action type "say" (expected one of addTodo, toggleTodo, renameTodo, removeTodo, clearCompleted, increment, resetCounter, setPriority, postMessage)"#),
        (#"{"type":"setPriority","id":"t7"}"#, #"action setPriority needs field "priority" (one of low, normal, high)"#),
        (#"{"type":"setPriority","id":"t7","priority":"urgent"}"#,
         #"field "priority" of action setPriority must be one of low, normal, high, found a string ("urgent")"#),
        (#"{"type":"rolled","sides":6,"result":4}"#, #"action rolled needs field "by" (a string)"#),
        (#"{"type":"rolled","by":"alice","result":4}"#, #"action rolled needs field "sides" (a 64-bit integer)"#),
        (#"{"type":"rolled","by":"alice","sides":6}"#, #"action rolled needs field "result" (a 64-bit integer)"#),
        (#"{"type":"rolled","by":"alice","sides":6,"result":"4"}"#, #"field "result" of action rolled must be a 64-bit integer, found a string ("4")"#),
    ])
    func rejects(text: String, message: String) throws {
        let object = try #require(try JSONValue(parsing: text).objectValue)
        let error = try #require(throws: Rejection.self) { try BoardAction(wireValue: object) }
        #expect(error.code == "invalid_action")
        #expect(error.message == message)
    }
}
