import StateSyncCore
import Testing
@testable import statesync

/// The action of `statesync dispatch`: JSON, or the short form.
@Suite struct ActionArgumentsTests {
    @Test(arguments: [
        (["addTodo", "title=Milk"], #"{"title":"Milk","type":"addTodo"}"#),
        (["increment", "counter=hits", "by=-3"], #"{"by":-3,"counter":"hits","type":"increment"}"#),
        (["postMessage", "text=hello world"], #"{"text":"hello world","type":"postMessage"}"#),
        (["renameTodo", "id=t3", #"title="42""#], #"{"id":"t3","title":"42","type":"renameTodo"}"#),
        (["x", "a=true", "b=null", "c=[1,2]", "d={\"k\":1}", "e=1.5", "f=", "g=a=b"],
         #"{"a":true,"b":null,"c":[1,2],"d":{"k":1},"e":1.5,"f":"","g":"a=b","type":"x"}"#),
        (["clearCompleted"], #"{"type":"clearCompleted"}"#),
        ([#"  {"type":"addTodo","title":"Milk"}"#], #"{"title":"Milk","type":"addTodo"}"#),
    ])
    func parses(arguments: [String], expected: String) throws {
        #expect(JSONValue.object(try ActionArguments(arguments).action) == (try JSONValue(parsing: expected)))
    }

    @Test(arguments: [
        ([String](), "missing the action"),
        ([#"{"type":"addTodo""#], "the action is not valid JSON: unexpected end of input at byte 17"),
        ([#"{"type":"addTodo"}"#, "title=Milk"], "a JSON action is one argument"),
        (["title=Milk"], "is not an action type"),
        (["\"addTodo\""], "is not an action type"),
        (["add todo"], "is not an action type"),
        (["[1]"], "must be a JSON object, not an array"),
        (["addTodo", "Milk"], "\"Milk\" is not KEY=VALUE"),
        (["addTodo", "=Milk"], "\"=Milk\" is not KEY=VALUE"),
        (["addTodo", "title=a", "title=b"], "\"title\" is given twice"),
        (["addTodo", "type=say"], "the type is the first argument"),
        ([#"{"type":7}"#], "needs a string \"type\" field"),
    ])
    func rejects(arguments: [String], expected: String) {
        #expect {
            try ActionArguments(arguments)
        } throws: { error in
            "\(error)".contains(expected)
        }
    }
}
