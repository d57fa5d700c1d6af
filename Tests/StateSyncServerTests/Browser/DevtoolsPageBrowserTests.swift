import StateSyncCore
import StateSyncProtocol
import StateSyncServer
import Testing
import StateSyncTestSupport

/// The devtools page (clients/js/devtools.html) in headless Chromium against
/// a real server with authentication on, opened with an admin token. One
/// Chromium at a time: two at once starve the rest of the suite on 2 cores.
@Suite(.timeLimit(.minutes(2)), .serialized)
struct DevtoolsPageBrowserTests {
    @Test func thePageListsActionsLiveAndShowsTheStateAtAnEarlierRevision() async throws {
        var configuration = TestServer.configuration
        configuration.authentication = .tokens(["s3cret": .admin, "pen": .writer])
        try await TestServer.with(configuration) { server in
            let milk = try await OtherClient.dispatch(url: server.url, action: ["type": "addTodo", "title": "Milk"], token: "pen")
            try await HeadlessChromium.with { browser in
                let page = try await browser.open("http://127.0.0.1:\(server.port)/devtools#token=s3cret")
                try await page.waitUntil("document.getElementById('connection').textContent === 'open'")
                try await page.waitUntil(#"document.getElementById('log').textContent.includes('"title":"Milk"')"#)

                // Actions that happen while the page is open show up by themselves.
                let bread = try await OtherClient.dispatch(url: server.url, action: ["type": "addTodo", "title": "Bread"], token: "pen")
                _ = try await OtherClient.dispatch(url: server.url, action: ["type": "toggleTodo", "id": .string("t\(milk)")], token: "pen")
                let code = try await OtherClient.dispatchRejected(url: server.url, action: ["type": "toggleTodo", "id": "nope"], token: "pen")
                #expect(code == "not_found")
                try await page.waitUntil(#"document.getElementById('log').textContent.includes('"title":"Bread"')"#)
                try await page.waitUntil("document.getElementById('log').textContent.includes('rejected not_found')")

                // An action's JSON Patch.
                _ = try await page.evaluate("document.querySelector('#log tr[data-key=\"r\(bread)\"]').click(); true")
                try await page.waitUntil(#"document.getElementById('diff').textContent.includes('"Bread"')"#)
                try await page.waitUntil(#"document.getElementById('diff').textContent.includes('"op": "add"')"#)

                // Time travel: the state after Milk, before Bread; then one step forward.
                _ = try await page.evaluate("document.getElementById('travel-rev').value = '\(milk)'; document.getElementById('go').click(); true")
                try await page.waitUntil("document.getElementById('state-banner').textContent.includes('the state at rev \(milk) ')")
                let before = try await page.evaluate("document.getElementById('state').textContent")
                #expect(before.stringValue?.contains("\"Milk\"") == true)
                #expect(before.stringValue?.contains("\"Bread\"") == false)
                _ = try await page.evaluate("document.getElementById('forward').click(); true")
                try await page.waitUntil("document.getElementById('state-banner').textContent.includes('the state at rev \(milk + 1) ')")

                // Sessions: at least the page's own, with its subscription to the whole state.
                try await page.waitUntil("document.getElementById('sessions').textContent.includes('devtools')")
                _ = try await page.evaluate("document.querySelector('#log tr[data-key=\"r\(bread)\"]').click(); true")
                try await page.screenshot(to: screenshotPath("devtools.png"))
                try await page.close()
            }
        }
    }

    @Test func theStorePickerShowsAnotherStoresLogAndItsPastStates() async throws {
        var configuration = TestServer.configuration
        configuration.authentication = .tokens(["s3cret": .admin, "pen": .writer])
        try await TestServer.with(configuration) { server in
            _ = try await OtherClient.dispatch(url: server.url, action: ["type": "addTodo", "title": "In main"], token: "pen")
            let milk = try await OtherClient.dispatch(url: server.url, action: ["type": "addTodo", "title": "Milk"], token: "pen", store: "team-a")
            _ = try await OtherClient.dispatch(url: server.url, action: ["type": "addTodo", "title": "Bread"], token: "pen", store: "team-a")
            try await HeadlessChromium.with { browser in
                let page = try await browser.open("http://127.0.0.1:\(server.port)/devtools#token=s3cret")
                try await page.waitUntil("[...document.querySelectorAll('#store-picker option')].map((o) => o.value).join() === 'main,team-a'")
                try await page.waitUntil(#"document.getElementById('log').textContent.includes('"title":"In main"')"#)
                // Picking team-a reloads the page on it: its log, its live state, not main's.
                // (The change fires after this evaluation returns, so the reload never cuts its answer off.)
                _ = try await page.evaluate("""
                    const picker = document.getElementById('store-picker'); picker.value = 'team-a';
                    setTimeout(() => picker.dispatchEvent(new Event('change')), 0); true
                    """)
                try await page.waitUntil("location.search === '?store=team-a'")
                try await page.waitUntil(#"document.getElementById('log').textContent.includes('"title":"Bread"')"#)
                try await page.waitUntil(#"document.getElementById('state').textContent.includes('"Bread"')"#)
                #expect(try await page.evaluate("document.getElementById('log').textContent.includes('In main')").boolValue == false)
                #expect(try await page.evaluate("document.getElementById('store-picker').value").stringValue == "team-a")
                // Time travel in team-a: the state after Milk, before Bread.
                _ = try await page.evaluate("document.getElementById('travel-rev').value = '\(milk)'; document.getElementById('go').click(); true")
                try await page.waitUntil("document.getElementById('state-banner').textContent.includes('the state at rev \(milk) ')")
                let before = try await page.evaluate("document.getElementById('state').textContent")
                #expect(before.stringValue?.contains("\"Milk\"") == true)
                #expect(before.stringValue?.contains("\"Bread\"") == false)
                try await page.close()
            }
        }
    }
}
