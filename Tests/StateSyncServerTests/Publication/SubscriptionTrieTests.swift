import StateSyncCore
import Testing
@testable import StateSyncServer

@Suite struct SubscriptionTrieTests {
    private func trie(_ paths: [String]) -> SubscriptionTrie {
        let trie = SubscriptionTrie()
        for path in paths {
            trie.insert(SubscriberKey(sessionID: "s", id: path), at: pointer(path), base: 0)
        }
        return trie
    }

    @Test(arguments: [
        ("/counters/hits", ["", "/counters", "/counters/hits"]),
        ("/todos", ["", "/todos", "/todos/0", "/todos/0/title"]),
        ("/chat", [""]),
    ])
    func visitsOnlyPathsAboveAtOrBelowTheChange(changed: String, expected: [String]) {
        var trie = trie(["", "/counters", "/counters/hits", "/counters/misses", "/todos", "/todos/0", "/todos/0/title"])
        let affected = trie.affected(by: [pointer(changed)]).map(\.pointer.description).sorted()
        #expect(affected == expected.sorted())
    }

    @Test func eachNodeIsReturnedOnceForOverlappingChanges() {
        var trie = trie(["/a", "/a/b"])
        let affected = trie.affected(by: [pointer("/a"), pointer("/a/b"), pointer("/a/b/c")])
        #expect(affected.count == 2)
    }

    @Test func removingTheLastSubscriptionPrunesTheBranch() {
        let trie = trie(["/a/b/c"])
        trie.remove(SubscriberKey(sessionID: "s", id: "/a/b/c"), at: pointer("/a/b/c"))
        #expect(trie.node(at: pointer("/a")) == nil)
    }
}

@Suite struct SubscriptionTrieDepthTests {
    @Test func aDeepNodeRebuildsItsPointerFromItsOwnTokens() throws {
        let trie = SubscriptionTrie()
        let tokens = (0..<2_000).map { "t\($0)" }
        let deep = JSONPointer(tokens: tokens)
        let key = SubscriberKey(sessionID: "s-1", id: "deep")
        trie.insert(key, at: deep, base: 7)
        let node = try #require(trie.node(at: deep))
        #expect(node.pointer == deep)
        #expect(node.subscribers[key] == 7)
        trie.remove(key, at: deep)
        #expect(trie.node(at: JSONPointer(tokens: ["t0"])) == nil)
    }
}
