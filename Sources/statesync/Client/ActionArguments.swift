import StateSyncCore

/// Reads the action of `statesync dispatch`: one JSON object (an argument starting with
/// `{`) or the short form `TYPE KEY=VALUE…` (TYPE: letters, digits, `_-.:`), each VALUE
/// read as JSON when it parses as JSON, else as a string (docs/cli.md, the short form).
struct ActionArguments {
    /// Why the arguments are not an action, with the offending argument.
    struct ParseError: Error, CustomStringConvertible {
        /// The sentence shown after `Error: `.
        let description: String
    }

    /// The parsed action.
    let action: JSONObject

    /// Parses `arguments` (at least one).
    init(_ arguments: [String]) throws(ParseError) {
        guard let first = arguments.first else {
            throw ParseError(description: "missing the action: give a JSON object or TYPE KEY=VALUE…")
        }
        if let opening = first.drop(while: \.isWhitespace).first, opening == "{" || opening == "[" {
            guard arguments.count == 1 else {
                throw ParseError(description: "a JSON action is one argument (quote it); unexpected \"\(arguments[1])\" after it")
            }
            action = try Self.parseJSON(first)
        } else {
            action = try Self.parseShortForm(type: first, pairs: arguments.dropFirst())
        }
    }

    /// A JSON object with a string `type`.
    private static func parseJSON(_ text: String) throws(ParseError) -> JSONObject {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: text)
        } catch {
            throw ParseError(description: "the action is not valid JSON: \(error)")
        }
        guard case .object(let object) = value else {
            throw ParseError(description: "the action must be a JSON object, not \(value.kindWithArticle)")
        }
        guard case .string = object["type"] else {
            throw ParseError(description: "the action needs a string \"type\" field, e.g. {\"type\":\"addTodo\",\"title\":\"Milk\"}")
        }
        return object
    }

    /// `TYPE KEY=VALUE…`.
    private static func parseShortForm(type: String, pairs: ArraySlice<String>) throws(ParseError) -> JSONObject {
        guard !type.isEmpty, type.allSatisfy({ $0.isLetter || $0.isNumber || "_-.:".contains($0) }) else {
            throw ParseError(description: "\"\(type)\" is not an action type; the short form is TYPE KEY=VALUE…, e.g. addTodo title=Milk")
        }
        var object: JSONObject = ["type": .string(type)]
        for pair in pairs {
            guard let separator = pair.firstIndex(of: "="), separator != pair.startIndex else {
                throw ParseError(description: "\"\(pair)\" is not KEY=VALUE (e.g. title=Milk)")
            }
            let key = String(pair[..<separator])
            guard object[key] == nil else {
                throw ParseError(description: key == "type" ? "the type is the first argument; \"\(pair)\" sets it again" : "\"\(key)\" is given twice")
            }
            object[key] = value(String(pair[pair.index(after: separator)...]))
        }
        return object
    }

    /// `text` as JSON when it parses, else as a string.
    static func value(_ text: String) -> JSONValue {
        (try? JSONValue(parsing: text)) ?? .string(text)   // not JSON: by the documented rule, a plain string
    }
}
