import Foundation
import Testing
@testable import statesync

/// `serve --config FILE`: YAML or JSON by the file's name, every key a
/// setting's (a typo is refused, naming it), and a clear line for a file
/// that cannot be read or is not a mapping of keys to values.
@Suite(.timeLimit(.minutes(1)))
struct ConfigurationFileTests {
    @Test func yamlAndJSONGiveTheSameSettings() throws {
        let yaml = try ServeSettings.file("statesync.yml", """
            # comments are allowed in YAML
            network:
              port: 9000
              allowHosts: ["board.lan"]
            storage: {memory: true}
            """)
        let json = try ServeSettings.file("statesync.json", #"{"network": {"port": 9000, "allowHosts": ["board.lan"]}, "storage": {"memory": true}}"#)
        for path in [yaml, json] {
            let settings = try ServeSettings.load(["--config", path])
            #expect(settings.network.port == 9000 && settings.network.allowHosts == ["board.lan"] && settings.storage.memory, "\(path)")
        }
        #expect(try ServeSettings.load(["--config", yaml]).fileFormat == .yaml)
    }

    @Test func unknownKeysAreRefusedNamingThem() throws {
        let file = try ServeSettings.file("statesync.yaml", """
            network:
              prot: 9000
              maxMessageBytes: 1024
            netwrok:
              host: 0.0.0.0
            colour: blue
            """)
        #expect(try ServeSettings.error(["--config", file]) == """
            \(file): unknown keys colour, network.maxMessageBytes (did you mean session.maxMessageBytes?), \
            network.prot (did you mean network.port?), netwrok.host (did you mean network.host?); docs/configuration.md lists every key
            """)
        let json = try ServeSettings.file("statesync.json", #"{"session": {"maxSubscription": 4}}"#)
        #expect(try ServeSettings.error(["--config", json])
            == "\(json): unknown key session.maxSubscription (did you mean session.maxSubscriptions?); docs/configuration.md lists every key")
    }

    @Test func aKeyWithoutAValueIsRefused() throws {
        let yaml = try ServeSettings.file("statesync.yaml", "network:\n  tlsCert:\n")
        #expect(try ServeSettings.error(["--config", yaml]) == "\(yaml)'s network.tlsCert has no value: give one, or leave the key out for its default")
        let json = try ServeSettings.file("statesync.json", #"{"logLevel": null}"#)
        #expect(try ServeSettings.error(["--config", json]) == "\(json)'s logLevel has no value: give one, or leave the key out for its default")
    }

    @Test func aFileOfCommentsOnlyKeepsTheDefaults() throws {
        let file = try ServeSettings.file("statesync.yaml", "# nothing set yet\n")
        #expect(try ServeSettings.load(["--config", file]).network.port == 8080)
    }

    @Test func aFileThatCannotBeReadOrParsedIsOneLine() throws {
        let directory = FileManager.default.temporaryDirectory.path
        #expect(try ServeSettings.error(["--config", directory + "/missing-\(UUID().uuidString).yaml"]).hasSuffix(": No such file or directory"))
        let toml = try ServeSettings.file("statesync.toml", "port = 1\n")
        #expect(try ServeSettings.error(["--config", toml])
            == "the configuration file \(toml) is neither YAML (.yaml, .yml) nor JSON (.json)")
        let list = try ServeSettings.file("statesync.yaml", "- port\n- host\n")
        #expect(try ServeSettings.error(["--config", list]) == "\(list): the top level must map keys to values")
        let broken = try ServeSettings.file("statesync.yaml", "network: [\n")
        let brokenMessage = try ServeSettings.error(["--config", broken])
        #expect(brokenMessage.hasPrefix("\(broken): ") && !brokenMessage.contains("\n"), "\(brokenMessage)")
        let array = try ServeSettings.file("statesync.json", "[1, 2]")
        #expect(try ServeSettings.error(["--config", array]) == "\(array): the top level must be an object")
    }
}
