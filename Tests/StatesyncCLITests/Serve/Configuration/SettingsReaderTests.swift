import Configuration
import Foundation
import Logging
import Testing
@testable import statesync

/// Where `serve`'s settings come from: flags win over `STATESYNC_*`
/// variables, which win over the configuration file, which wins over the
/// defaults; and every setting can be given each of the three ways.
@Suite(.timeLimit(.minutes(1)))
struct SettingsReaderTests {
    @Test func eachLevelWinsOverTheOnesBelow() throws {
        let file = try ServeSettings.file("statesync.yaml", """
            network:
              port: 9001
              allowOrigins: ["https://file.example"]
            cluster:
              pollInterval: 2.5
            logLevel: "debug"
            """)
        let defaults = try ServeSettings.load()
        #expect(defaults.network.port == 8080 && defaults.origins[ServeConfiguration.Network.Keys.port] == .defaultValue(flag: "--port"))

        let fromFile = try ServeSettings.load(["--config", file])
        #expect(fromFile.network.port == 9001)
        #expect(fromFile.network.allowOrigins == ["https://file.example"])
        #expect(fromFile.cluster.pollInterval == 2.5)
        #expect(fromFile.logLevel == .debug)
        #expect(fromFile.origins[ServeConfiguration.Network.Keys.port] == .file(key: "network.port", path: file))

        let environment = ["STATESYNC_PORT": "9002", "STATESYNC_ALLOW_ORIGINS": "https://a.example, https://b.example",
                           "STATESYNC_LOG_LEVEL": "warning"]
        let fromVariables = try ServeSettings.load(["--config", file], environment: environment)
        #expect(fromVariables.network.port == 9002)
        #expect(fromVariables.network.allowOrigins == ["https://a.example", "https://b.example"])   // replaced, not merged
        #expect(fromVariables.cluster.pollInterval == 2.5)
        #expect(fromVariables.logLevel == .warning)
        #expect(fromVariables.origins[ServeConfiguration.Network.Keys.port] == .environment("STATESYNC_PORT"))

        let fromFlags = try ServeSettings.load(
            ["--config", file, "--port", "9003", "--allow-origin", "https://c.example", "--log-level", "error"], environment: environment)
        #expect(fromFlags.network.port == 9003)
        #expect(fromFlags.network.allowOrigins == ["https://c.example"])
        #expect(fromFlags.logLevel == .error)
        #expect(fromFlags.origins[ServeConfiguration.Network.Keys.port] == .flag("--port"))
    }

    @Test func aFlagOnlyTurnsASwitchOnAndAVariableCanTurnTheFilesOff() throws {
        let file = try ServeSettings.file("statesync.yaml", "network:\n  echo: true\n")
        #expect(try ServeSettings.load(["--config", file]).network.echo)
        #expect(try !ServeSettings.load(["--config", file], environment: ["STATESYNC_ECHO": "false"]).network.echo)
        #expect(try ServeSettings.load(["--echo"], environment: ["STATESYNC_ECHO": "no"]).network.echo)
    }

    @Test func forwardingIsOnUntilAFlagAVariableOrTheFileTurnsItOff() throws {
        #expect(try ServeSettings.load().cluster.forwarding)
        #expect(try !ServeSettings.load(["--no-forwarding"]).cluster.forwarding)
        #expect(try !ServeSettings.load(environment: ["STATESYNC_FORWARDING": "false"]).cluster.forwarding)
        let file = try ServeSettings.file("statesync.yaml", "cluster:\n  forwarding: false\n")
        #expect(try !ServeSettings.load(["--config", file]).cluster.forwarding)
        #expect(try ServeSettings.load(["--config", file, "--forwarding"]).cluster.forwarding)
    }

    @Test func theNodeAddressIsAHostAndAPort() throws {
        #expect(try ServeSettings.load().cluster.nodeAddress == nil)
        #expect(try ServeSettings.load(["--node-address", "10.0.0.7:8080"]).cluster.nodeAddress == "10.0.0.7:8080")
        #expect(try ServeSettings.load(["--node-address", "[fd00::7]:8080"]).cluster.nodeAddress == "[fd00::7]:8080")
        #expect(try ServeSettings.load(environment: ["STATESYNC_NODE_ADDRESS": "node-b:9000"]).cluster.nodeAddress == "node-b:9000")
        for bad in ["node-b", "node-b:0", "node-b:70000", ":8080", "fd00::7:8080", "a b:80", "http://node-b:80"] {
            #expect(try ServeSettings.error(["--node-address", bad])
                == "--node-address \(bad) is not HOST:PORT (an IPv6 host in brackets)", "\(bad)")
        }
    }

    @Test func theConfigFileMayBeNamedByAVariable() throws {
        let named = try ServeSettings.file("named.json", #"{"network": {"port": 9101}}"#)
        let given = try ServeSettings.file("given.json", #"{"network": {"port": 9102}}"#)
        #expect(try ServeSettings.load(environment: ["STATESYNC_CONFIG": named]).network.port == 9101)
        #expect(try ServeSettings.load(["--config", given], environment: ["STATESYNC_CONFIG": named]).network.port == 9102)
        #expect(try ServeSettings.load(environment: ["STATESYNC_CONFIG": named]).fileFormat == .json)
    }

    @Test func anEmptyVariableIsUnset() throws {
        let settings = try ServeSettings.load(environment: ["STATESYNC_PORT": "", "STATESYNC_POSTGRES_URL": ""])
        #expect(settings.network.port == 8080)
        #expect(settings.storage.postgresURL == nil)
    }

    @Test func memoryAndPostgresFromDifferentLevelsTheHigherWins() throws {
        let url = "postgres://statesync@127.0.0.1:5432/statesync"
        let memoryFlag = try ServeSettings.load(["--memory"], environment: ["STATESYNC_POSTGRES_URL": url])
        #expect(memoryFlag.storage.memory && memoryFlag.storage.postgresURL == nil)
        let postgresFlag = try ServeSettings.load(["--postgres", url], environment: ["STATESYNC_MEMORY": "true"])
        #expect(!postgresFlag.storage.memory && postgresFlag.storage.postgresURL == url)
        #expect(try ServeSettings.error(["--memory", "--postgres", url]) == "--memory and --postgres exclude each other")
        #expect(try ServeSettings.error(environment: ["STATESYNC_MEMORY": "1", "STATESYNC_POSTGRES_URL": url])
            == "STATESYNC_MEMORY and STATESYNC_POSTGRES_URL exclude each other")
    }

    /// A valid value of each setting, as a variable, a flag or in a file would give it.
    private static func sample(_ entry: ConfigurationEntry) -> String {
        switch entry.name.fileKey {
        case "storage.postgresURL": "postgres://statesync@127.0.0.1/statesync"
        case "storage.memory": "false"
        case "cluster.nodeAddress": "10.0.0.7:8080"
        default:
            switch entry.printed {
            case .int(let value): "\(value)"
            case .double(let value): "\(value)"
            case .bool: "true"
            case .string(let value): value
            case .stringArray: "a=admin"
            default: "/tmp/x.pem"   // the optional paths
            }
        }
    }

    @Test func everySettingIsReadFromItsVariable() throws {
        let entries = ServeConfiguration().entries
        let environment = Dictionary(uniqueKeysWithValues: entries.map { ($0.name.environmentVariable, Self.sample($0)) })
        let settings = try ServeSettings.load(environment: environment)
        for entry in entries {
            #expect(settings.origins[entry.name] == .environment(entry.name.environmentVariable), "\(entry.name.fileKey)")
        }
        #expect(environment.count == entries.count, "two settings share a variable")
        #expect(environment["STATESYNC_POSTGRES_URL"] != nil && environment["STATESYNC_TOKENS"] != nil)
    }

    @Test func everySettingIsReadFromItsFlag() throws {
        let entries = ServeConfiguration().entries
        let arguments = entries.flatMap { entry -> [String] in
            if case .bool = entry.printed { return entry.name.fileKey == "storage.memory" ? [] : [entry.name.flag] }
            return [entry.name.flag, Self.sample(entry)]
        }
        let settings = try ServeSettings.load(arguments)
        for entry in entries where entry.name.fileKey != "storage.memory" {
            #expect(settings.origins[entry.name] == .flag(entry.name.flag), "\(entry.name.fileKey)")
        }
        #expect(Set(entries.map(\.name.flag)).count == entries.count, "two settings share a flag")
    }
}
