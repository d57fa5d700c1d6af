import Foundation
import StateSyncCore
import StateSyncJournal
import StateSyncProtocol
import StateSyncSQLite
import StateSyncServer
import Testing
@testable import statesync

/// The server's configuration built from `serve`'s settings: each value
/// where the server reads it, and the entries parsed at that point (tokens,
/// restrictions, the PostgreSQL URL) refused naming the setting as given.
@Suite(.timeLimit(.minutes(1)))
struct ServerConfigurationTests {
    static func server(_ arguments: [String] = [], environment: [String: String] = [:]) throws -> StateSyncServerConfiguration {
        try ServeSettings.load(arguments, environment: environment).serverConfiguration()
    }

    static func failure(
        _ arguments: [String] = [], environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let settings = try ServeSettings.load(arguments, environment: environment)
        return try #require(throws: CommandFailure.self, sourceLocation: sourceLocation) { try settings.serverConfiguration() }.message
    }

    @Test func eachSettingReachesTheServer() throws {
        let configuration = try Self.server(
            ["--port", "0", "--memory", "--max-subscriptions", "7", "--idle-timeout", "0", "--max-connections-per-ip", "3",
             "--outcome-window", "60", "--journal-retention", "50", "--snapshot-every", "25", "--inject-latency", "40"],
            environment: ["STATESYNC_ALLOW_HOSTS": "board.lan", "STATESYNC_ON_DAMAGED_JOURNAL": "new-epoch", "STATESYNC_THREADS": "3"])
        #expect(configuration.port == 0)
        #expect(configuration.storage == .memory)
        #expect(configuration.session.maxSubscriptions == 7)
        #expect(configuration.session.idleTimeout == nil)
        #expect(configuration.connections.maxConnectionsPerAddress == 3)
        #expect(configuration.engine.outcomeRetention.window == .seconds(60))
        #expect(configuration.retention.revisions == 50)
        #expect(configuration.engine.snapshotEvery == 25)
        #expect(configuration.injectedLatency == .milliseconds(40))
        #expect(configuration.requestPolicy.allowedHosts == ["board.lan"])
        #expect(configuration.damagedJournal == .newEpoch)
        #expect(configuration.threads == 3)
        #expect(try Self.server(["--data", "/tmp/somewhere"]).storage == .directory("/tmp/somewhere"))
    }

    @Test func tokensComeFromTheFileAndTheHighestLevelThatHasThem() throws {
        let tokens = try ServeSettings.file("tokens", "boss admin\n")
        let fromVariable = try Self.server(
            ["--tokens-file", tokens], environment: ["STATESYNC_TOKENS": "s3cret=admin, viewer=reader\twriter-token"])
        #expect(fromVariable.authentication == .tokens(["boss": .admin, "s3cret": .admin, "viewer": .reader, "writer-token": .writer]))
        let fromFlag = try Self.server(["--tokens-file", tokens, "--token", "cli"], environment: ["STATESYNC_TOKENS": "s3cret=admin"])
        #expect(fromFlag.authentication == .tokens(["boss": .admin, "cli": .writer]))
        #expect(try Self.server().authentication == .open)
    }

    @Test func aMalformedEntryIsNamedAsGivenWithoutItsToken() throws {
        let file = try ServeSettings.file("statesync.yaml", "auth:\n  restrictRead: [\"presence=admin\"]\n")
        #expect(try Self.failure(["--config", file]).hasPrefix("\(file)'s auth.restrictRead presence=admin: "))
        #expect(try Self.failure(environment: ["STATESYNC_RESTRICT_ACTION": "resetCounter"])
            == "STATESYNC_RESTRICT_ACTION resetCounter: expected TYPE=ROLE, e.g. resetCounter=admin")
        let badRole = try Self.failure(environment: ["STATESYNC_TOKENS": "s3cret=boss"])
        #expect(badRole == "STATESYNC_TOKENS …: \"boss\" is not a role (reader, writer or admin)")
        #expect(try Self.failure(environment: ["STATESYNC_METRICS_ADMIN_ONLY": "true"])
            .hasPrefix("STATESYNC_METRICS_ADMIN_ONLY needs an admin token"))
        #expect(try Self.failure(environment: ["STATESYNC_POSTGRES_URL": "mysql://u@db/x"])
            .hasPrefix("STATESYNC_POSTGRES_URL: the PostgreSQL URL must start with postgres://"))
    }

    @Test func restrictionsReachTheSessions() throws {
        let file = try ServeSettings.file("statesync.json", #"{"auth": {"restrictRead": ["/presence=admin"], "restrictAction": ["resetCounter=admin"]}}"#)
        let configuration = try Self.server(["--config", file])
        #expect(configuration.session.readPermissions.minimumRoles == [try JSONPointer(parsing: "/presence"): .admin])
        #expect(configuration.session.actionPermissions.minimumRoles == ["resetCounter": .admin])
    }
}
