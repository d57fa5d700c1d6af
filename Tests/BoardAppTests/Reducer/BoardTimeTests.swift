import BoardApp
import Foundation
import Testing

@Suite("BoardTime")
struct BoardTimeTests {
    @Test("whole seconds without a fraction, others with milliseconds, always UTC", arguments: [
        (0.0, "1970-01-01T00:00:00Z"),
        (1_795_255_200, "2026-11-21T10:00:00Z"),
        (1_795_255_200.25, "2026-11-21T10:00:00.250Z"),
        (1_795_255_080, "2026-11-21T09:58:00Z"),
    ])
    func format(seconds: Double, text: String) {
        #expect(BoardTime.string(from: Date(timeIntervalSince1970: seconds)) == text)
    }
}
