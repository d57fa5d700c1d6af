import StateSyncCore

/// Board-like states (todos, counters, chat, presence) of a chosen size,
/// shaped like the protocol's example application.
enum BoardDocument {
    /// A state whose compact JSON is roughly `targetBytes` long; todos make
    /// up most of it, as they would in a busy board.
    static func make(targetBytes: Int) -> JSONValue {
        let todoCount = max(1, targetBytes * 8 / 10 / 75)
        let counterCount = 20
        let chatCount = max(1, min(100, targetBytes / 500))
        let presenceCount = max(1, min(200, targetBytes / 2000))
        let todos: [JSONValue] = (0..<todoCount).map { index in
            ["id": .string("t\(index)"), "title": .string("Buy item number \(index) é"), "done": .bool(index % 3 == 0)]
        }
        var counters = JSONObject()
        for index in 0..<counterCount { counters["counter\(index)"] = .integer(Int64(index * 7)) }
        counters["hits"] = 0
        let chat: [JSONValue] = (0..<chatCount).map { index in
            ["from": .string("user\(index % 7)"), "text": .string("message \(index): \"hello\"\n"),
             "at": "2026-11-21T10:00:00Z"]
        }
        var presence = JSONObject()
        for index in 0..<presenceCount {
            presence["s-\(index)"] = ["name": .string("laptop-\(index)"), "since": "2026-11-21T09:58:00Z", "load": 0.25]
        }
        return ["todos": .array(todos), "counters": .object(counters), "chat": .array(chat), "presence": .object(presence)]
    }
}
