import Foundation
import StateSyncServer
import StateSyncWebClients
import StateSyncTestSupport

/// Where the browser tests save their screenshots: `STATESYNC_SCREENSHOT_DIR`
/// when set (`STATESYNC_SCREENSHOT_DIR=docs swift test --filter Browser`
/// refreshes docs/board.png and docs/devtools.png), else a temporary directory.
func screenshotPath(_ name: String) -> String {
    let directory = ProcessInfo.processInfo.environment["STATESYNC_SCREENSHOT_DIR"] ?? NSTemporaryDirectory()
    return URL(fileURLWithPath: directory).appendingPathComponent(name).path
}

/// The test server configuration with the board page at `/` and `/board`, as `statesync serve` has.
func boardPageConfiguration() throws -> StateSyncServerConfiguration {
    var configuration = TestServer.configuration
    let board = try WebClientFiles.file(named: "board.html")
    configuration.pages = [WebPage(path: "/", file: board), WebPage(path: "/board", file: board)]
    return configuration
}
