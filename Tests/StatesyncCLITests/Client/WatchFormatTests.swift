import StateSyncCore
import Testing
@testable import statesync

@Suite struct WatchFormatTests {
    @Test func linesForOneAndSeveralPathsAndNDJSON() throws {
        let value: JSONValue = ["hits": 3]
        #expect(WatchFormat(json: false, showsPath: false).line(path: "/counters", rev: 9, value: value) == #"{"hits":3}"#)
        #expect(WatchFormat(json: false, showsPath: true).line(path: "/counters", rev: 9, value: value) == #"/counters {"hits":3}"#)
        #expect(WatchFormat(json: false, showsPath: true).line(path: "", rev: 9, value: value) == #""" {"hits":3}"#)
        let line = WatchFormat(json: true, showsPath: false).line(path: "/counters", rev: 9, value: value)
        #expect(try JSONValue(parsing: line) == ["rev": 9, "path": "/counters", "value": ["hits": 3]])
        #expect(!line.contains("\n"))
    }
}
