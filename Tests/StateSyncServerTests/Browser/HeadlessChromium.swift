import TestProcessSupport
import Foundation
import NIOCore
import StateSyncCore
import Testing
import WebSocket
import StateSyncTestSupport

/// Debian's `chromium` run headless (`--headless --no-sandbox`) with its own
/// temporary profile and a DevTools port the OS chose, driven over the
/// Chrome DevTools Protocol with the project's WebSocket client.
final class HeadlessChromium {
    private let process: ServeProcess
    private let profile: String
    /// `ws://127.0.0.1:PORT/devtools/browser/…`.
    let browserURL: String

    private init(process: ServeProcess, profile: String, browserURL: String) {
        self.process = process
        self.profile = profile
        self.browserURL = browserURL
    }

    /// Starts a browser; fails the test with a clear message when `chromium`
    /// is not installed (`scripts/test` installs it).
    static func launch() async throws -> HeadlessChromium {
        let executable = try #require(
            Tools.onPath("chromium"),
            "chromium is not on PATH: run scripts/test, or apt-get install -y --no-install-recommends chromium")
        let profile = NSTemporaryDirectory() + "statesync-chromium-" + UUID().uuidString
        let process = try ServeProcess([
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--remote-debugging-port=0", "--user-data-dir=\(profile)", "--window-size=1280,900", "about:blank",
        ], executable: executable)
        // Chromium prints its DevTools URL on stderr; a child's output can only be polled.
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if let line = process.standardError.split(separator: "\n").first(where: { $0.hasPrefix("DevTools listening on ") }) {
                return HeadlessChromium(
                    process: process, profile: profile, browserURL: String(line.dropFirst("DevTools listening on ".count)))
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.send(SIGKILL)
        _ = await process.waitForExit()
        Issue.record("chromium did not print its DevTools URL within 30 s: \(process.standardError)")
        throw CancellationError()
    }

    /// A new tab showing `url`, once its document has loaded.
    func open(_ url: String) async throws -> BrowserPage {
        let browser = try await DevToolsConnection.connect(browserURL)
        let target = try await browser.call("Target.createTarget", ["url": "about:blank"])
        try await browser.close()
        let id = try #require(target["targetId"]?.stringValue)
        let base = browserURL.components(separatedBy: "/devtools/browser/")[0]
        let page = BrowserPage(try await DevToolsConnection.connect("\(base)/devtools/page/\(id)"))
        _ = try await page.connection.call(
            "Emulation.setDeviceMetricsOverride", ["width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": false])
        _ = try await page.connection.call("Page.navigate", ["url": .string(url)])
        try await page.waitUntil("document.readyState === 'complete'")
        return page
    }

    /// Kills the browser and removes its profile.
    func close() async {
        process.send(SIGKILL)
        _ = await process.waitForExit()
        try? FileManager.default.removeItem(atPath: profile)  // cleanup only; a leftover temp dir hurts no test
    }

    /// Runs `body` with a browser, closing it afterwards.
    static func with<T>(_ body: (HeadlessChromium) async throws -> T) async throws -> T {
        let browser = try await launch()
        do {
            let result = try await body(browser)
            await browser.close()
            return result
        } catch {
            await browser.close()
            throw error
        }
    }
}

/// One tab: evaluate JavaScript, wait for a condition, take a screenshot.
final class BrowserPage {
    let connection: DevToolsConnection

    init(_ connection: DevToolsConnection) {
        self.connection = connection
    }

    /// The value of `expression` (awaited when it is a promise), as JSON.
    func evaluate(_ expression: String) async throws -> JSONValue {
        let reply = try await connection.call(
            "Runtime.evaluate", ["expression": .string(expression), "returnByValue": true, "awaitPromise": true])
        if let exception = reply["exceptionDetails"] {
            Issue.record("JavaScript threw: \(JSONSerializer().string(for: exception))")
            throw CancellationError()
        }
        return reply["result"]?["value"] ?? .null
    }

    /// Waits until `condition` (a JavaScript expression) is true in the page,
    /// checked every 50 ms inside the page; fails after `timeout`. A wait
    /// that the page's navigation cuts short (its context destroyed, say
    /// after a link or a `location` change) goes on in the new page.
    func waitUntil(_ condition: String, timeout: Duration = .seconds(15), sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let milliseconds = max(50, (deadline - .now).components.seconds * 1_000 + (deadline - .now).components.attoseconds / 1_000_000_000_000_000)
            let script = """
                new Promise((resolve) => {
                  const deadline = Date.now() + \(milliseconds);
                  const check = () => {
                    let ok = false;
                    try { ok = Boolean(\(condition)); } catch (error) { ok = false; }
                    if (ok) resolve(true); else if (Date.now() > deadline) resolve(false); else setTimeout(check, 50);
                  };
                  check();
                })
                """
            let reply = try? await connection.call(
                "Runtime.evaluate", ["expression": .string(script), "returnByValue": true, "awaitPromise": true])
            guard let reply, reply["exceptionDetails"] == nil else {
                // Navigated mid-wait: poll again once the new page may have its context.
                try await Task.sleep(for: .milliseconds(50))
                continue
            }
            if reply["result"]?["value"] == true { return }
            break
        }
        let text = try await evaluate("document.body ? document.body.innerText.slice(0, 2000) : ''")
        Issue.record("timed out waiting for \(condition); page text: \(text.stringValue ?? "")", sourceLocation: sourceLocation)
        throw CancellationError()
    }

    /// Saves a PNG of the viewport at `path`.
    func screenshot(to path: String) async throws {
        let reply = try await connection.call("Page.captureScreenshot", ["format": "png"])
        let data = try #require(reply["data"]?.stringValue.flatMap { Data(base64Encoded: $0) })
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// Closes the DevTools connection (the browser closes the tab with itself).
    func close() async throws {
        try await connection.close()
    }
}

/// A Chrome DevTools Protocol connection: numbered calls, events skipped.
final class DevToolsConnection {
    private let connection: WebSocketConnection
    private var iterator: WebSocketInboundMessages.AsyncIterator
    private var nextID: Int64 = 0

    private init(_ connection: WebSocketConnection) {
        self.connection = connection
        self.iterator = connection.inbound.makeAsyncIterator()
    }

    static func connect(_ url: String) async throws -> DevToolsConnection {
        var configuration = WebSocketConfiguration()
        configuration.maxMessageSize = 64 << 20
        configuration.maxFrameSize = 64 << 20
        return DevToolsConnection(try await WebSocketClient.connect(url: url, configuration: configuration))
    }

    /// A DevTools protocol `error` answer, or the connection closing first.
    struct CallFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Calls `method` and returns its `result`; throws ``CallFailure`` on a
    /// protocol `error` (a caller that expects one, such as a wait across a
    /// navigation, catches it; elsewhere it fails the test).
    func call(_ method: String, _ params: JSONObject = [:]) async throws -> JSONValue {
        nextID += 1
        let id = nextID
        let request: JSONValue = ["id": .integer(id), "method": .string(method), "params": .object(params)]
        try await connection.outbound.send(text: JSONSerializer().string(for: request))
        while let message = await iterator.next() {
            let reply = try JSONParser().parse(Array(message.data.readableBytesView))
            guard reply["id"] == .integer(id) else { continue }
            if let error = reply["error"] {
                throw CallFailure(description: "\(method) failed: \(JSONSerializer().string(for: error))")
            }
            return reply["result"] ?? .null
        }
        throw CallFailure(description: "the browser closed the DevTools connection during \(method)")
    }

    func close() async throws {
        try await connection.outbound.close(code: .normalClosure, reason: "")
    }
}
