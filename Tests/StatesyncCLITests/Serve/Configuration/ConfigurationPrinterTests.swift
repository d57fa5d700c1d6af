import Configuration
import Foundation
import Testing
@testable import statesync

/// `serve --print-config`: the effective configuration in the file's
/// format, which `--config` reads back, with secrets masked.
@Suite(.timeLimit(.minutes(1)))
struct ConfigurationPrinterTests {
    static let secrets = ["s3cret-admin", "viewer-token", "flag-token", "pg-password"]

    static func configurationWithSecrets(file: String) throws -> ServeConfiguration {
        try ServeSettings.load(
            ["--config", file, "--token", "flag-token=admin", "--port", "9000", "--tls-cert", "/etc/cert.pem", "--tls-key", "/etc/key.pem"],
            environment: ["STATESYNC_POSTGRES_URL": "postgres://statesync:pg-password@db.internal:5432/statesync"])
    }

    @Test func secretsAreMaskedAndTheRestShown() throws {
        let file = try ServeSettings.file("statesync.yaml", "auth:\n  tokens: [\"s3cret-admin=admin\", \"viewer-token=reader\", \"bare\"]\n")
        let fromFile = ConfigurationPrinter.text(of: try ServeSettings.load(["--config", file]), as: .yaml)
        #expect(fromFile.contains(#"  tokens: ["********=admin", "********=reader", "********"]  # file"#), "\(fromFile)")
        let text = ConfigurationPrinter.text(of: try Self.configurationWithSecrets(file: file), as: .yaml)
        for secret in Self.secrets {
            #expect(!text.contains(secret), "\(secret) printed:\n\(text)")
        }
        #expect(text.contains(#"  tokens: ["********=admin"]  # --token"#), "\(text)")
        #expect(text.contains(#"  postgresURL: "postgres://statesync:********@db.internal:5432/statesync"  # STATESYNC_POSTGRES_URL"#), "\(text)")
        #expect(text.contains(#"  tlsKey: "/etc/key.pem"  # --tls-key"#), "the key's path is not a secret:\n\(text)")
        #expect(text.contains("  port: 9000  # --port\n"))
        #expect(text.contains("  host: \"127.0.0.1\"\n"), "defaults have no note:\n\(text)")
        #expect(!text.contains("tokensFile"), "unset settings are left out:\n\(text)")
    }

    @Test func jsonIsMaskedToo() throws {
        let file = try ServeSettings.file("statesync.json", #"{"auth": {"tokens": ["s3cret-admin=admin"]}}"#)
        let configuration = try Self.configurationWithSecrets(file: file)
        #expect(configuration.fileFormat == .json)
        let text = ConfigurationPrinter.text(of: configuration, as: .json)
        for secret in Self.secrets {
            #expect(!text.contains(secret), "\(secret) printed:\n\(text)")
        }
        #expect(text.hasPrefix("{\n  \"network\": {\n    \"host\": \"127.0.0.1\",\n    \"port\": 9000,\n"), "\(text)")
        #expect(text.hasSuffix("  },\n  \"logLevel\": \"info\"\n}\n"), "\(text)")
    }

    @Test(arguments: [ConfigurationFormat.yaml, .json])
    func whatIsPrintedLoadsBackTheSame(format: ConfigurationFormat) throws {
        let original = try ServeSettings.load(
            ["--port", "9000", "--allow-origin", "https://a.example", "--memory", "--poll-interval", "0.5", "--restrict-read", "/presence=admin",
             "--log-level", "debug", "--tokens-file", "/etc/tokens"],
            environment: ["STATESYNC_ON_DAMAGED_JOURNAL": "new-epoch", "STATESYNC_TLS_CERT": "c.pem", "STATESYNC_TLS_KEY": "k.pem"])
        let text = ConfigurationPrinter.text(of: original, as: format)
        let file = try ServeSettings.file(format == .yaml ? "printed.yaml" : "printed.json", text)
        let loaded = try ServeSettings.load(["--config", file])
        #expect(loaded.entries.map(\.printed) == original.entries.map(\.printed), "\(text)")
        for entry in loaded.entries where entry.printed != nil {
            #expect(loaded.origins[entry.name] == .file(key: entry.name.fileKey, path: file))
        }
    }

    @Test(arguments: [
        ("postgres://statesync:secret@db:5432/statesync", "postgres://statesync:********@db:5432/statesync"),
        ("postgresql://u:p%40ss@[::1]/db?sslmode=disable", "postgresql://u:********@[::1]/db?sslmode=disable"),
        ("postgres://statesync@db/statesync", "postgres://statesync@db/statesync"),
        ("not a url", "not a url"),
    ])
    func postgresPasswordsAreMasked(url: String, masked: String) {
        #expect(SecretMask.postgresURL(url) == masked)
    }
}
