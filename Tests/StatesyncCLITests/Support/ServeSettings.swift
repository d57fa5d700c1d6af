import ArgumentParser
import Foundation
import Testing
@testable import statesync

/// `serve`'s configuration loaded as the command loads it: the arguments
/// parsed by the real ``Serve`` command, an environment given instead of
/// the process's, and configuration files written to a temporary directory.
enum ServeSettings {
    /// The configuration of `statesync serve arguments…` with `environment`
    /// (and the configuration file `file`, as if given by `--config`).
    /// Without arguments, the command line is not parsed: swift-argument-parser
    /// takes some 50 ms to parse `serve`'s options in a debug build.
    static func load(_ arguments: [String] = [], environment: [String: String] = [:], file: String? = nil) throws -> ServeConfiguration {
        let serve = arguments.isEmpty ? nil : try Serve.parse(arguments)
        return try ServeConfiguration(flags: serve?.flags ?? FlagValues(), environment: environment, file: serve?.config ?? file)
    }

    /// The message of the ``ConfigurationError`` that loading throws.
    static func error(
        _ arguments: [String] = [], environment: [String: String] = [:], file: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let error = try #require(throws: ConfigurationError.self, sourceLocation: sourceLocation) {
            try load(arguments, environment: environment, file: file)
        }
        return error.description
    }

    /// The path of a new file named `name` (its extension says its format) holding `text`.
    static func file(_ name: String, _ text: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("statesync-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The repository's file at `path` (e.g. `deploy/statesync.example.yaml`).
    static func repositoryFile(_ path: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(path).path
    }
}
