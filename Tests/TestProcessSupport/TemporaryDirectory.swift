import Foundation

/// A fresh directory under the system's temporary directory, removed after `body`.
public func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
    let path = NSTemporaryDirectory() + "statesync-tests-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: path) }  // cleanup only; a leftover temp dir hurts no test
    return try await body(path)
}
