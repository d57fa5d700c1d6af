import Testing

@testable import WebSocket

/// ``RoutePattern``: `{name}` segments match one non-empty segment each.
struct RoutePatternTests {
    @Test(arguments: [
        ("/api/stores/{store}/state", "/api/stores/team-42/state", ["store": "team-42"]),
        ("/api/stores/{store}", "/api/stores/a.b_c", ["store": "a.b_c"]),
        ("/a/{x}/{y}", "/a/1/2", ["x": "1", "y": "2"]),
        ("/health", "/health", [:]),
    ] as [(String, String, [String: String])])
    func matches(pattern: String, path: String, parameters: [String: String]) {
        #expect(RoutePattern(pattern).match(path) == parameters)
    }

    @Test(arguments: [
        ("/api/stores/{store}/state", "/api/stores//state"),
        ("/api/stores/{store}/state", "/api/stores/x/state/more"),
        ("/api/stores/{store}/state", "/api/stores/x/watch"),
        ("/api/stores/{store}", "/api/stores"),
        ("/health", "/healthz"),
    ])
    func doesNotMatch(pattern: String, path: String) {
        #expect(RoutePattern(pattern).match(path) == nil)
    }

    @Test func onlyPathsWithoutParametersAreExact() {
        #expect(RoutePattern("/api/state").isExact)
        #expect(!RoutePattern("/api/stores/{store}").isExact)
        #expect(RoutePattern("/{}").isExact, "an empty name is a literal segment")
    }
}
