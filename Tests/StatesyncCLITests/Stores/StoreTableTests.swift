import StateSyncClient
import StateSyncCore
import StateSyncProtocol
import Testing
@testable import statesync

/// The table and JSON of `statesync stores`.
@Suite struct StoreTableTests {
    @Test func columnsAreAlignedAndUnknownFiguresAreDashes() throws {
        let stores = [
            StoreInfo(name: .main, open: true, revision: 1042, sessions: 3, bytes: 1_887_436),
            StoreInfo(name: try StoreName("team-42"), open: false, revision: nil, sessions: 0, bytes: nil),
        ]
        #expect(StoreTable.text(stores) == """
            NAME     OPEN  REV   SESSIONS  BYTES
            main     yes   1042  3         1.8 MiB
            team-42  no    -     0         -

            """)
        #expect(StoreTable.json(stores[1]) == ["name": "team-42", "open": false, "sessions": 0, "bytes": .null])
    }

    @Test(arguments: [(0, "0 B"), (1023, "1023 B"), (1024, "1.0 KiB"), (94_208, "92.0 KiB"), (5 << 30, "5.0 GiB"), (3 << 40, "3072.0 GiB")])
    func bytesAreForPeople(bytes: Int, text: String) {
        #expect(StoreTable.byteCount(bytes) == text)
    }
}
