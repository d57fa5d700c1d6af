import StateSyncCore
import Testing
import StateSyncTestSupport

/// The board page (clients/js/board.html) in headless Chromium against a real server.
@Suite(.timeLimit(.minutes(2)))
struct BoardPageBrowserTests {
    @Test func thePageShowsAnotherClientsTodoAndItsOwnTodoReachesAnotherClient() async throws {
        try await TestServer.with(try boardPageConfiguration()) { server in
            let home = try await HTTPGet.get(port: server.port, path: "/")
            #expect(home.status == 200 && home.body.contains("StateSync board"))
            try await HeadlessChromium.with { browser in
                let page = try await browser.open("http://127.0.0.1:\(server.port)/board#name=browser-test")
                try await page.waitUntil("document.getElementById('connection').textContent === 'open'")

                // Dispatched elsewhere, shown live in the page.
                _ = try await OtherClient.dispatch(url: server.url, action: ["type": "addTodo", "title": "Milk from another client"])
                try await page.waitUntil(#"[...document.querySelectorAll('#todos .todo-title')].some((e) => e.textContent === 'Milk from another client')"#)

                // Added in the page, read by another client.
                _ = try await page.evaluate("""
                    document.getElementById('todo-input').value = 'Bread from the page';
                    document.getElementById('todo-add').click(); true
                    """)
                try await page.waitUntil(#"[...document.querySelectorAll('#todos .todo-title')].some((e) => e.textContent === 'Bread from the page')"#)
                let todos = try await OtherClient.get(url: server.url, path: "/todos")
                let titles = (todos.arrayValue ?? []).compactMap { $0["title"]?.stringValue }
                #expect(titles == ["Milk from another client", "Bread from the page"])

                // Toggling in the page goes through the server too.
                _ = try await page.evaluate("document.querySelector('#todos li input[type=checkbox]').click(); true")
                try await page.waitUntil("document.querySelector('#todos li').classList.contains('done')")
                #expect(try await OtherClient.get(url: server.url, path: "/todos/0/done") == true)

                // Counters, chat and presence for the screenshot, and the rev shown.
                _ = try await OtherClient.dispatch(url: server.url, action: ["type": "increment", "counter": "hits", "by": 3])
                let last = try await OtherClient.dispatch(url: server.url, action: ["type": "postMessage", "text": "hello from another client"])
                try await page.waitUntil("document.getElementById('chat').textContent.includes('hello from another client')")
                try await page.waitUntil("document.getElementById('counters').textContent.includes('hits3')")
                try await page.waitUntil("document.getElementById('presence').textContent.includes('browser-test (you)')")
                try await page.waitUntil("Number(document.getElementById('rev').textContent) >= \(last)")
                try await page.screenshot(to: screenshotPath("board.png"))
                try await page.close()
            }
        }
    }
}
