import TestProcessSupport
import Foundation
import StateSyncCore
import StateSyncTestSupport
import Testing

/// The "other client" of the browser tests: the `statesync` CLI, run as a
/// process (`statesync dispatch`, `statesync get`), as a user in another
/// terminal would.
enum OtherClient {
    /// `statesync dispatch ACTION_JSON`; returns the acked revision it prints,
    /// failing the test when the command fails.
    static func dispatch(url: String, action: JSONValue, token: String? = nil, store: String = "main") async throws -> UInt64 {
        let result = try await CLI.run(
            ["dispatch", "--url", url, "--name", "other-client", "--store", store] + tokenOption(token) + [action.description])
        try #require(result.status == 0, "statesync dispatch failed (\(result.status)): \(result.errors)")
        return try #require(UInt64(result.output.trimmingCharacters(in: .whitespacesAndNewlines)), "not a revision: \(result.output)")
    }

    /// `statesync get PATH`: the value it prints.
    static func get(url: String, path: String, token: String? = nil) async throws -> JSONValue {
        let result = try await CLI.run(["get", "--url", url] + tokenOption(token) + [path])
        try #require(result.status == 0, "statesync get failed (\(result.status)): \(result.errors)")
        return try JSONParser().parse(Array(result.output.utf8))
    }

    /// `statesync dispatch` of an action the server refuses: exit 1 and the
    /// rejection on stderr (`statesync: rejected (not_found): …`); returns its code.
    static func dispatchRejected(url: String, action: JSONValue, token: String? = nil) async throws -> String {
        let result = try await CLI.run(["dispatch", "--url", url, "--name", "other-client"] + tokenOption(token) + [action.description])
        try #require(result.status == 1, "expected a rejection, got \(result.status): \(result.output)\(result.errors)")
        let code = result.errors.split(separator: "(").dropFirst().first?.split(separator: ")").first
        return String(try #require(code, "no code in: \(result.errors)"))
    }

    private static func tokenOption(_ token: String?) -> [String] {
        token.map { ["--token", $0] } ?? []
    }
}
