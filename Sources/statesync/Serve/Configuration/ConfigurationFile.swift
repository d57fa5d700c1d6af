import Configuration
import Foundation
import StateSyncCore
import Yams

/// The configuration file of `statesync serve --config FILE`, read once. Every key it sets
/// must be a setting's: a typo is refused, never ignored (docs/configuration.md).
struct ConfigurationFile: Sendable {
    /// The path it was read from, as given.
    let path: String
    /// Its format, from its name.
    let format: ConfigurationFormat
    /// swift-configuration's `YAMLSnapshot` or `JSONSnapshot` of it.
    let snapshot: any ConfigSnapshot
    /// Each key's value as written, to quote in errors.
    let writtenValues: [String: String]

    /// Reads and checks the file at `path` against `knownKeys` (dot-separated file keys).
    init(path: String, knownKeys: Set<String>) throws(ConfigurationError) {
        guard let format = ConfigurationFormat(path: path) else { throw .unknownFormat(path) }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw .unreadableFile(path, reason: String(cString: strerror(errno))) }
        let data: Data
        do {
            data = try FileHandle(fileDescriptor: descriptor, closeOnDealloc: true).readToEnd() ?? Data()
        } catch {
            throw .unreadableFile(path, reason: "\(error)")
        }
        let leaves = switch format {
        case .yaml: try Self.yamlLeaves(data, path: path)
        case .json: try Self.jsonLeaves(data, path: path)
        }
        if let key = leaves.keys.sorted().first(where: { leaves[$0] == .some(nil) }) { throw .noValue(path, key: key) }
        let unknown = leaves.keys.filter { !knownKeys.contains($0) }
        guard unknown.isEmpty else {
            throw .unknownKeys(path, unknown, suggestions: KeySuggestion.suggestions(for: unknown, among: knownKeys))
        }
        self.path = path
        self.format = format
        writtenValues = leaves.compactMapValues { $0 }
        let name = "file \(path)"
        do {
            if leaves.isEmpty {
                snapshot = InMemoryProvider(name: name, values: [:]).snapshot()   // comments only: YAMLSnapshot wants a mapping
            } else if format == .yaml {
                snapshot = try YAMLSnapshot(data: data.bytes, providerName: name, parsingOptions: .default)
            } else {
                snapshot = try JSONSnapshot(data: data.bytes, providerName: name, parsingOptions: .default)
            }
        } catch {
            throw .malformedFile(path, reason: "\(error)")
        }
    }

    /// The dot-separated keys of a YAML document's values, each with its
    /// text (`nil` for a key written without a value). A document of
    /// comments only has none.
    private static func yamlLeaves(_ data: Data, path: String) throws(ConfigurationError) -> [String: String?] {
        let root: Node?
        do {
            root = try Yams.compose(yaml: String(decoding: data, as: UTF8.self))
        } catch {
            // Yams' errors quote the line after two lines of text: one line is enough here.
            let lines = "\(error)".split(separator: "\n").prefix(2).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ": ")) }
            throw .malformedFile(path, reason: lines.joined(separator: ": "))
        }
        guard let root else { return [:] }
        guard root.mapping != nil else { throw .malformedFile(path, reason: "the top level must map keys to values") }
        var leaves: [String: String?] = [:]
        try yamlLeaves(root, key: [], path: path, into: &leaves)
        return leaves
    }

    private static func yamlLeaves(_ node: Node, key: [String], path: String, into leaves: inout [String: String?]) throws(ConfigurationError) {
        let name = key.joined(separator: ".")
        switch node {
        case .mapping(let mapping):
            for (child, value) in mapping {
                guard let part = child.string else {
                    throw .malformedFile(path, reason: "a key under \(name.isEmpty ? "the top level" : name) is not a string")
                }
                try yamlLeaves(value, key: key + [part], path: path, into: &leaves)
            }
        case .scalar(let scalar):
            leaves[name] = node.null == nil ? scalar.string : String?.none
        case .sequence(let sequence):
            leaves[name] = "[" + sequence.map { $0.string ?? "…" }.joined(separator: ", ") + "]"
        case .alias:
            throw .malformedFile(path, reason: "\(name) is an alias: write its value")
        }
    }

    /// The dot-separated keys of a JSON object's values, each with its JSON text (`nil` for `null`).
    private static func jsonLeaves(_ data: Data, path: String) throws(ConfigurationError) -> [String: String?] {
        let root: JSONValue
        do {
            root = try JSONValue(parsing: [UInt8](data))
        } catch {
            throw .malformedFile(path, reason: "\(error)")
        }
        guard case .object = root else { throw .malformedFile(path, reason: "the top level must be an object") }
        var leaves: [String: String?] = [:]
        jsonLeaves(root, key: [], into: &leaves)
        return leaves
    }

    private static func jsonLeaves(_ value: JSONValue, key: [String], into leaves: inout [String: String?]) {
        switch value {
        case .object(let object):
            for (part, child) in object { jsonLeaves(child, key: key + [part], into: &leaves) }
        case .null:
            leaves[key.joined(separator: ".")] = String?.none
        default:
            leaves[key.joined(separator: ".")] = JSONSerializer().string(for: value)
        }
    }
}
