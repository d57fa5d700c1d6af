import Foundation
import StateSyncCore
import Testing

@Suite("Recorder")
struct RecorderTests {
    private let actions: [AppAction] = [
        .increment, .setLabel("a"), .openEditor, .edit("x"), .add(5), .add(9_999), .stampTime, .increment,
    ]

    @Test(arguments: [100, 3])
    func rebuildingAnyRecordedRevisionEqualsTheLiveState(capacity: Int) throws {
        let live = Collected<AppState>()
        let recorder = Recorder(capacity: capacity, reducer: appReducer)
        let store = makeAppStore(middleware: [recorder, OnChange { live.append($0.new) }])
        for action in actions { store.send(action) }
        let states = live.all
        #expect(states.count == 7)
        let oldest = UInt64(states.count - min(capacity, states.count))
        for revision in max(oldest, 1)...UInt64(states.count) {
            #expect(try recorder.state(at: revision) == states[Int(revision) - 1])
        }
        #expect(recorder.entries.count == min(capacity, 7))
        #expect(throws: RecorderError.self) { try recorder.state(at: 99) }
    }

    @Test func entriesCarryTheJSONPatchOfEachChange() throws {
        let recorder = Recorder(reducer: appReducer)
        let store = makeAppStore(middleware: [recorder])
        store.send(.increment, clientID: "c-1")
        let entry = try #require(recorder.entries.first)
        #expect(entry.meta.revision == 1)
        #expect(try entry.patch.get() == JSONPatch([.replace(path: try JSONPointer(parsing: "/count"), value: 1)]))
    }

    @Test func logShowsOneBlockPerAction() {
        let recorder = Recorder(reducer: appReducer)
        let store = makeAppStore(middleware: [recorder])
        store.send(.add(2), clientID: "c-1")
        store.send(.setLabel("x"))
        #expect(recorder.log() == """
        rev 1 {"add":{"_0":2}} by c-1 at 1970-01-01T00:16:40Z
          replace /count 2
        rev 2 {"setLabel":{"_0":"x"}} by - at 1970-01-01T00:16:40Z
          replace /label "x"
        """)
    }
}
