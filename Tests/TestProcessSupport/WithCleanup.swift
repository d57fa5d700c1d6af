/// Runs `body`, then `cleanup`, whether `body` threw or not: the async
/// `defer` Swift does not have. A failing `cleanup` is reported when `body`
/// succeeded; when `body` threw, its error is the one reported.
///
/// ```swift
/// try await withCleanup { try await body(postgres) } cleanup: { try await postgres.remove() }
/// ```
package func withCleanup<T>(_ body: () async throws -> T, cleanup: () async throws -> Void) async throws -> T {
    let result: T
    do {
        result = try await body()
    } catch {
        try? await cleanup()   // the body's error is the one to report
        throw error
    }
    try await cleanup()
    return result
}
