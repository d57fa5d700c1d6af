import Foundation
import Testing
@testable import statesync

/// Every rule of `serve`'s configuration refuses a bad value with a
/// message naming the setting as the user gave it (its flag, its variable
/// or its key in the file) and the value.
@Suite(.timeLimit(.minutes(1)))
struct ConfigurationValidationTests {
    /// Where a refused value is given.
    enum Level: CaseIterable, Sendable {
        case flag, variable, file
    }

    /// A value one rule refuses and the message: `{name}` stands for the
    /// setting as given, `{subject}` for it and its value (`--port 70000`,
    /// `STATESYNC_PORT=70000`, `FILE's network.port 70000`).
    struct Refusal: Sendable, CustomTestStringConvertible {
        let flag: String
        let value: String
        let message: String
        var testDescription: String { "\(flag) \(value)" }
        init(_ flag: String, _ value: String, _ message: String) {
            (self.flag, self.value, self.message) = (flag, value, message)
        }
    }

    static let atLeastOne = [
        "--threads", "--snapshot-every", "--journal-retention", "--journal-retention-bytes", "--max-connections",
        "--max-connections-per-ip", "--joins-per-second", "--join-burst", "--max-tracked-addresses", "--max-subscriptions",
        "--messages-per-second", "--burst", "--bytes-per-second", "--max-path-depth", "--max-path-bytes", "--max-id-bytes",
        "--max-name-length", "--outcomes-per-client", "--outcome-window", "--max-client-ids", "--max-state-bytes",
        "--max-deferred-answers", "--max-deferred-bytes", "--max-queued-requests", "--max-devtools-requests", "--max-todos",
        "--max-counters", "--max-counter-name-length",
    ].map { Refusal($0, "0", "{name} must be at least 1, not 0") }

    static let refusals = atLeastOne + [
        Refusal("--port", "70000", "{subject} is not between 0 and 65535 (a TCP port)"),
        Refusal("--inject-latency", "60001", "{subject} is not between 0 and 60000 milliseconds"),
        Refusal("--older-snapshots", "-1", "{name} must be at least 0, not -1"),
        Refusal("--on-damaged-journal", "repair", "{subject} is not refuse or new-epoch"),
        Refusal("--poll-interval", "0.01", "{subject} is not between 0.05 and 60 seconds"),
        Refusal("--request-timeout", "0.0", "{subject} is not between 0.01 and 86400 seconds"),
        Refusal("--keep-alive-timeout", "86401.0", "{subject} is not between 0.01 and 86400 seconds"),
        Refusal("--hello-timeout", "0.0", "{subject} is not between 0.01 and 86400 seconds"),
        Refusal("--max-message-bytes", "512", "{subject} is below 1024"),
        Refusal("--max-outbound-bytes", "65536", "{subject} is below 1048576 (where slow consumers start to be coalesced)"),
        Refusal("--max-nesting-depth", "1", "{name} must be at least 2, not 1: a message is an object holding an action object"),
        Refusal("--ping-interval", "-1.0", "{name} must be at least 0, not -1.0: 0 is never"),
        Refusal("--idle-timeout", "-1.0", "{name} must be at least 0, not -1.0: 0 is never"),
        Refusal("--max-todo-id-length", "20", "{name} must be at least 21, not 20: the server's todo ids have up to that many characters"),
        Refusal("--log-level", "loud", "{subject} is not trace, debug, info, notice, warning, error or critical"),
    ]

    @Test(arguments: refusals, Level.allCases)
    func aRefusedValueIsNamedAsGiven(refusal: Refusal, level: Level) throws {
        let name = try #require(ServeConfiguration.names.first { $0.flag == refusal.flag })
        let message: String
        let shownName: String
        let subject: String
        switch level {
        case .flag:
            message = try ServeSettings.error(["\(refusal.flag)=\(refusal.value)"])
            (shownName, subject) = (refusal.flag, "\(refusal.flag) \(refusal.value)")
        case .variable:
            message = try ServeSettings.error(environment: [name.environmentVariable: refusal.value])
            (shownName, subject) = (name.environmentVariable, "\(name.environmentVariable)=\(refusal.value)")
        case .file:
            let path = try ServeSettings.file("statesync.yaml", Self.yaml(name.fileKey, refusal.value))
            message = try ServeSettings.error(file: path)
            (shownName, subject) = ("\(path)'s \(name.fileKey)", "\(path)'s \(name.fileKey) \(refusal.value)")
        }
        #expect(message == refusal.message.replacingOccurrences(of: "{name}", with: shownName)
            .replacingOccurrences(of: "{subject}", with: subject))
    }

    /// A YAML document setting `key` (dot-separated, one section at most) to `value`.
    static func yaml(_ key: String, _ value: String) -> String {
        let parts = key.split(separator: ".")
        return parts.count == 1 ? "\(key): \(value)\n" : "\(parts[0]):\n  \(parts[1]): \(value)\n"
    }

    @Test(arguments: [
        ("STATESYNC_PORT", "http", "STATESYNC_PORT=http is not an integer"),
        ("STATESYNC_ECHO", "maybe", "STATESYNC_ECHO=maybe is not true or false"),
        ("STATESYNC_POLL_INTERVAL", "fast", "STATESYNC_POLL_INTERVAL=fast is not a number"),
    ])
    func aVariableOfTheWrongTypeIsRefused(variable: String, value: String, message: String) throws {
        #expect(try ServeSettings.error(environment: [variable: value]) == message)
    }

    @Test func aFileValueOfTheWrongTypeIsRefusedAsWritten() throws {
        let json = try ServeSettings.file("statesync.json", #"{"network": {"port": "80"}}"#)
        #expect(try ServeSettings.error(["--config", json]) == "\(json)'s network.port \"80\" is not an integer")
        let yaml = try ServeSettings.file("statesync.yaml", "cluster:\n  pollInterval: fast\n")
        #expect(try ServeSettings.error(["--config", yaml]) == "\(yaml)'s cluster.pollInterval fast is not a number")
        let list = try ServeSettings.file("statesync.yaml", "auth:\n  tokens: s3cret\n")
        #expect(try ServeSettings.error(["--config", list]) == "\(list)'s auth.tokens s3cret is not a list of strings")
    }

    @Test func tlsCertificateAndKeyGoTogether() throws {
        let file = try ServeSettings.file("statesync.yaml", "network:\n  tlsCert: cert.pem\n")
        #expect(try ServeSettings.error(["--config", file]) == "\(file)'s network.tlsCert and --tls-key go together: give both or neither")
        #expect(try ServeSettings.error(environment: ["STATESYNC_TLS_KEY": "key.pem"])
            == "STATESYNC_TLS_KEY and --tls-cert go together: give both or neither")
        #expect(try ServeSettings.load(["--config", file], environment: ["STATESYNC_TLS_KEY": "key.pem"]).network.tlsKey == "key.pem")
    }

    @Test(arguments: [
        (["--presence-heartbeat", "5", "--presence-expiry", "5"], [:],
         "--presence-heartbeat must be at least 0.1 s and --presence-expiry longer than it, at most 3600 s (not 5.0 s and 5.0 s)"),
        (["--presence-heartbeat", "0.01"], [:],
         "--presence-heartbeat must be at least 0.1 s and --presence-expiry longer than it, at most 3600 s (not 0.01 s and 15.0 s)"),
        ([], ["STATESYNC_PRESENCE_EXPIRY": "7200"],
         "--presence-heartbeat must be at least 0.1 s and STATESYNC_PRESENCE_EXPIRY longer than it, at most 3600 s (not 5.0 s and 7200.0 s)"),
    ] as [([String], [String: String], String)])
    func presenceTimingsThatCannotWorkAreRefused(arguments: [String], environment: [String: String], message: String) throws {
        #expect(try ServeSettings.error(arguments, environment: environment) == message)
    }
}
