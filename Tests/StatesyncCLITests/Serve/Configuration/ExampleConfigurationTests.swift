import Configuration
import Foundation
import Testing
@testable import statesync

/// The repository's example configuration file and the guide's table of
/// settings say what the code does.
@Suite(.timeLimit(.minutes(1)))
struct ExampleConfigurationTests {
    static let example = ServeSettings.repositoryFile("deploy/statesync.example.yaml")

    @Test func theExampleGivesTheDefaultsAndItsDataDirectory() throws {
        let settings = try ServeSettings.load(["--config", Self.example])
        var expected = ServeConfiguration()
        expected.storage.data = "/var/lib/statesync"
        #expect(settings.entries.map(\.printed) == expected.entries.map(\.printed))
        #expect(settings.origins[ServeConfiguration.Storage.Keys.data] == .file(key: "storage.data", path: Self.example))
        #expect(settings.origins[ServeConfiguration.Network.Keys.threads] == .defaultValue(flag: "--threads"), "threads is commented out")
    }

    @Test func theExampleShowsEveryKey() throws {
        let text = try String(contentsOfFile: Self.example, encoding: .utf8)
        for name in ServeConfiguration.names {
            let key = name.fileKey.split(separator: ".").last ?? ""
            #expect(text.contains(" \(key): ") || text.hasPrefix("\(key): ") || text.contains("\n\(key): "), "\(name.fileKey) is not in the example")
        }
    }

    @Test func theGuideListsEverySettingWithItsFlagVariableAndDefault() throws {
        let guide = try String(contentsOfFile: ServeSettings.repositoryFile("docs/configuration.md"), encoding: .utf8)
        let lines = guide.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "## Every setting"))
        let rows = lines[start...].filter { $0.hasPrefix("| `") }.map { line in
            line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
        }
        let defaults = ServeConfiguration()
        let expected = zip(ServeConfiguration.names, defaults.entries).map { name, entry in
            [name.fileKey, name.flag, name.environmentVariable, name.fileKey == "network.threads" ? "one per core" : Self.documented(entry.printed)]
        }
        #expect(rows.map { Array($0.prefix(4)) } == expected)
    }

    /// A default as the guide writes it: `none` for an empty list or no value.
    static func documented(_ value: ConfigContent?) -> String {
        switch value {
        case .string(let string): string
        case .int(let int): "\(int)"
        case .double(let double): "\(double)"
        case .bool(let bool): "\(bool)"
        case .stringArray(let strings) where !strings.isEmpty: strings.joined(separator: ", ")
        default: "none"
        }
    }
}
