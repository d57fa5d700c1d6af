import StateSyncCore
import StateSyncTestSupport
import Testing

/// `GET /api/watch` from Chromium's own `EventSource`: the browser parses
/// the stream, names the events and keeps the last event id.
@Suite(.timeLimit(.minutes(2)))
struct EventSourceBrowserTests {
    @Test func aBrowsersEventSourceGetsTheSnapshotThenEveryPatch() async throws {
        try await TestServer.with(try boardPageConfiguration()) { server in
            try await HeadlessChromium.with { browser in
                let page = try await browser.open("http://127.0.0.1:\(server.port)/board#name=watcher")
                _ = try await page.evaluate("""
                    window.events = [];
                    window.source = new EventSource('/api/watch?path=/counters');
                    for (const type of ['snapshot', 'patch']) {
                      source.addEventListener(type, (e) => events.push({ type, id: e.lastEventId, data: JSON.parse(e.data) }));
                    }
                    true
                    """)
                try await page.waitUntil("events.length === 1 && events[0].type === 'snapshot'")
                let rev = try await OtherClient.dispatch(url: server.url, action: ["type": "increment", "counter": "hits", "by": 2])
                try await page.waitUntil("events.some((e) => e.type === 'patch')")
                let patch = try await page.evaluate("JSON.stringify(events.find((e) => e.type === 'patch'))")
                let event = try JSONParser().parse(try #require(patch.stringValue))
                #expect(event["id"] == .string(String(rev)))
                #expect(event["data"]?["path"] == "/counters")
                #expect(event["data"]?["rev"] == .integer(Int64(rev)))
                #expect(event["data"]?["ops"] == [["op": "add", "path": "/hits", "value": 2]])
                #expect(try await page.evaluate("source.readyState") == 1)
                _ = try await page.evaluate("source.close(); true")
                try await page.close()
            }
        }
    }
}
