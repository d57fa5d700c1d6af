import TestProcessSupport
import Foundation
import StateSyncTestSupport
import Testing

/// `statesync --help` and every subcommand's `--help` against docs/cli.md's
/// "Every command and option" tables: the commands with their abstracts, and
/// each command's arguments and options with their meaning and default. The
/// page is parsed, the built binary run, so the two cannot drift apart.
@Suite(.timeLimit(.minutes(1)))
struct HelpMatchesDocsTests {
    /// docs/cli.md, from this file's place in the repository.
    static let page = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs").appendingPathComponent("cli.md")

    /// Entries that every command has and the page leaves out.
    static let standard: Set<String> = ["--version", "-h, --help"]

    /// The rows of the first table after the line `heading`: cells without their backticks.
    static func table(after heading: String, in page: String) throws -> [[String]] {
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: heading), "docs/cli.md has no line \(heading)")
        var rows: [[String]] = []
        for line in lines[(start + 1)...] {
            if line.hasPrefix("|") {
                let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                rows.append(cells.map { cell in
                    cell.hasPrefix("`") && cell.hasSuffix("`") && cell.count > 1 ? String(cell.dropFirst().dropLast()) : cell
                })
            } else if !rows.isEmpty {
                break
            }
        }
        // Header and separator rows out.
        return Array(rows.dropFirst(2))
    }

    static func help(_ arguments: [String]) async throws -> String {
        let result = try await CLI.run(arguments + ["--help"], environment: ["COLUMNS": "80"])
        #expect(result.status == 0, "statesync \(arguments.joined(separator: " ")) --help: \(result.errors)")
        return result.output
    }

    static func commands() throws -> [String] {
        let page = try String(contentsOf: Self.page, encoding: .utf8)
        return try table(after: "### Every command and option", in: page).map { $0[0] }
    }

    @Test func theCommandsAndTheirAbstractsAreTheDocs() async throws {
        let page = try String(contentsOf: Self.page, encoding: .utf8)
        let documented = try Self.table(after: "### Every command and option", in: page)
            .map { HelpEntry(synopsis: $0[0], meaning: $0[1], defaultValue: nil) }
        let actual = HelpText.entries("SUBCOMMANDS", in: try await Self.help([]))
        #expect(!actual.isEmpty, "statesync --help lists no subcommands")
        #expect(documented == actual, "docs/cli.md's command table against statesync --help")
    }

    @Test(arguments: ["serve", "get", "watch", "dispatch", "mirror", "stores list", "stores delete", "bench", "verify"])
    func eachCommandsArgumentsAndOptionsAreTheDocs(_ command: String) async throws {
        let topCommand = String(command.split(separator: " ")[0])
        #expect(try Self.commands().contains(topCommand), "docs/cli.md's command table lacks \(topCommand)")
        let page = try String(contentsOf: Self.page, encoding: .utf8)
        let documented = try Self.table(after: "#### `statesync \(command)`", in: page).map { row in
            HelpEntry(synopsis: row[0], meaning: row[1], defaultValue: row[2] == "–" ? nil : row[2])
        }
        let help = try await Self.help(command.split(separator: " ").map(String.init))
        var actual = (HelpText.entries("ARGUMENTS", in: help) + HelpText.entries("OPTIONS", in: help))
            .filter { !Self.standard.contains($0.synopsis) }
        #expect(!actual.isEmpty, "statesync \(command) --help lists no options")
        // The generator's thread count defaults to the machine's cores: the page says so in words.
        for index in actual.indices where actual[index].synopsis == "--threads <threads>" {
            if documented.first(where: { $0.synopsis == "--threads <threads>" })?.defaultValue == "one per core",
               Int(actual[index].defaultValue ?? "") != nil {
                actual[index].defaultValue = "one per core"
            }
        }
        #expect(documented.map(\.synopsis) == actual.map(\.synopsis), "docs/cli.md's `statesync \(command)` options against its --help")
        for (documentedEntry, helpEntry) in zip(documented, actual) where documentedEntry != helpEntry {
            Issue.record("statesync \(command): docs/cli.md says \(documentedEntry), --help says \(helpEntry)")
        }
    }

    @Test func theParserReadsWrappedEntriesAndDefaults() {
        let help = """
            OPTIONS:
              --log-level <log-level> trace, debug, info, notice, warning, error or
                                      critical. (default: info)
              --tokens-file <tokens-file>
                                      A file of "TOKEN ROLE" lines.
              <paths> ...             JSON Pointers (default: the whole state).
              -h, --help              Show help information.

            """
        #expect(HelpText.entries("OPTIONS", in: help) == [
            HelpEntry(synopsis: "--log-level <log-level>", meaning: "trace, debug, info, notice, warning, error or critical.", defaultValue: "info"),
            HelpEntry(synopsis: "--tokens-file <tokens-file>", meaning: #"A file of "TOKEN ROLE" lines."#, defaultValue: nil),
            HelpEntry(synopsis: "<paths> ...", meaning: "JSON Pointers (default: the whole state).", defaultValue: nil),
            HelpEntry(synopsis: "-h, --help", meaning: "Show help information.", defaultValue: nil),
        ])
    }
}
