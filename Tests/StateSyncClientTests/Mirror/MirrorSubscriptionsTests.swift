import StateSyncCore
import Testing

@testable import StateSyncClient

@Suite struct MirrorSubscriptionsTests {
    private let todos = try! JSONPointer(parsing: "/todos")
    private let addMilk = try! JSONPatch(jsonValue: [["op": "add", "path": "/-", "value": "Milk"]])

    @Test func snapshotThenChainedPatchesWriteTheValue() {
        var subscriptions = MirrorSubscriptions()
        #expect(subscriptions.subscribe(todos, wireID: "s1") == (nil, nil))
        #expect(subscriptions.snapshot(wireID: "s1", rev: 4, value: []) == .write(path: todos, value: []))
        #expect(subscriptions.patch(wireID: "s1", base: 4, rev: 6, ops: addMilk) == .write(path: todos, value: ["Milk"]))
        #expect(subscriptions[todos]?.rev == 6)
    }

    @Test func aPatchWhoseBaseIsNotTheMirroredRevisionAsksToResubscribeFromIt() {
        var subscriptions = MirrorSubscriptions()
        _ = subscriptions.subscribe(todos, wireID: "s1")
        _ = subscriptions.snapshot(wireID: "s1", rev: 4, value: [])
        #expect(subscriptions.patch(wireID: "s1", base: 5, rev: 6, ops: addMilk) == .resubscribe(path: todos))
        #expect(subscriptions[todos]?.value == [])
        let (since, replaced) = subscriptions.subscribe(todos, wireID: "s2")
        #expect(since == 4)
        #expect(replaced == "s1")
        #expect(subscriptions.patch(wireID: "s1", base: 4, rev: 6, ops: addMilk) == .ignore)
    }

    @Test func opsThatDoNotApplyForgetTheRevisionForAFreshSnapshot() throws {
        var subscriptions = MirrorSubscriptions()
        _ = subscriptions.subscribe(todos, wireID: "s1")
        _ = subscriptions.snapshot(wireID: "s1", rev: 4, value: [])
        let bad = try JSONPatch(jsonValue: [["op": "remove", "path": "/3"]])
        #expect(subscriptions.patch(wireID: "s1", base: 4, rev: 5, ops: bad) == .resubscribe(path: todos))
        #expect(subscriptions.subscribe(todos, wireID: "s2").since == nil)
    }

    @Test func aNewEpochForgetsRevisionsAndAReconnectForgetsWireIDs() {
        var subscriptions = MirrorSubscriptions()
        _ = subscriptions.subscribe(todos, wireID: "s1")
        _ = subscriptions.snapshot(wireID: "s1", rev: 4, value: [])
        subscriptions.connectionEnded(newEpoch: false)
        #expect(subscriptions.path(forWireID: "s1") == nil)
        #expect(subscriptions.subscribe(todos, wireID: "s2") == (4, nil))
        subscriptions.connectionEnded(newEpoch: true)
        #expect(subscriptions.subscribe(todos, wireID: "s3") == (nil, nil))
        #expect(subscriptions[todos]?.value == [])
    }

    @Test func coveringPrefersTheClosestSubscription() throws {
        var subscriptions = MirrorSubscriptions()
        _ = subscriptions.subscribe(.root, wireID: "s1")
        _ = subscriptions.subscribe(todos, wireID: "s2")
        let title = try JSONPointer(parsing: "/todos/0/title")
        #expect(subscriptions.covering(title)?.path == todos)
        #expect(subscriptions.covering(try JSONPointer(parsing: "/chat"))?.path == .root)
        _ = subscriptions.remove(.root)
        #expect(subscriptions.covering(try JSONPointer(parsing: "/chat")) == nil)
    }

    @Test func nestedListsSyncedInnerSubscriptionsOutermostFirst() throws {
        var subscriptions = MirrorSubscriptions()
        let first = try JSONPointer(parsing: "/todos/0")
        for (id, path) in [("s1", JSONPointer.root), ("s2", first), ("s3", todos)] {
            _ = subscriptions.subscribe(path, wireID: id)
            _ = subscriptions.snapshot(wireID: id, rev: 1, value: nil)
        }
        #expect(subscriptions.nested(in: .root).map(\.path) == [todos, first])
        #expect(subscriptions.nested(in: first).isEmpty)
    }
}
