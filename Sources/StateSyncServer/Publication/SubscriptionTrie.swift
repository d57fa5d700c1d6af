import CoreMetrics
import Logging
import StateSyncCore

/// One subscription as the engine tracks it: its session and client-chosen id.
struct SubscriberKey: Hashable, Sendable {
    var sessionID: String
    var id: String
}

/// One JSON Pointer of the subscription index: the subscriptions focused here
/// and the longer pointers below. A node keeps only its own token and parent,
/// so a pointer of N tokens costs N nodes.
final class SubscriptionNode {
    /// The last token of this node's pointer (`nil` for the root).
    private let token: String?
    /// The node one token up (`nil` for the root); it outlives its children.
    private unowned let parent: SubscriptionNode?
    /// Child nodes by the next reference token.
    fileprivate(set) var children: [String: SubscriptionNode] = [:]
    /// Subscriptions at ``pointer`` and their `base` (last revision sent).
    var subscribers: [SubscriberKey: UInt64] = [:]
    /// The fan-out round that last collected this node (deduplicates visits).
    fileprivate var visitMark: UInt64 = 0

    fileprivate init(token: String?, parent: SubscriptionNode?) {
        self.token = token
        self.parent = parent
    }

    /// This node's pointer, rebuilt from its tokens (O(depth)).
    var pointer: JSONPointer {
        var tokens: [String] = []
        var node: SubscriptionNode? = self
        while let current = node, let token = current.token {
            tokens.append(token)
            node = current.parent
        }
        return JSONPointer(tokens: tokens.reversed())
    }

    fileprivate var isEmpty: Bool { subscribers.isEmpty && children.isEmpty }
}

/// Subscriptions indexed by pointer tokens, so a change visits only those at,
/// above or below its path. Not thread-safe: owned by one shard's ``Publication``.
struct SubscriptionTrie {
    private let root = SubscriptionNode(token: nil, parent: nil)
    private var round: UInt64 = 0

    /// Adds (or replaces) subscription `key` at `pointer` with `base`.
    func insert(_ key: SubscriberKey, at pointer: JSONPointer, base: UInt64) {
        var node = root
        for token in pointer.tokens {
            if let child = node.children[token] {
                node = child
            } else {
                let child = SubscriptionNode(token: token, parent: node)
                node.children[token] = child
                node = child
            }
        }
        node.subscribers[key] = base
    }

    /// The node for `pointer`, when one exists.
    func node(at pointer: JSONPointer) -> SubscriptionNode? {
        var node = root
        for token in pointer.tokens {
            guard let child = node.children[token] else { return nil }
            node = child
        }
        return node
    }

    /// Removes subscription `key` at `pointer` and prunes nodes left empty.
    func remove(_ key: SubscriberKey, at pointer: JSONPointer) {
        var path = [root]
        for token in pointer.tokens {
            guard let child = path[path.count - 1].children[token] else { return }
            path.append(child)
        }
        path[path.count - 1].subscribers[key] = nil
        for depth in stride(from: path.count - 1, to: 0, by: -1) where path[depth].isEmpty {
            path[depth - 1].children[pointer.tokens[depth - 1]] = nil
        }
    }

    /// The nodes with subscriptions whose value may differ after changes at
    /// `changed` (pointers from the root): nodes on the way to a changed
    /// pointer, and every node below it. Each node is returned once.
    mutating func affected(by changed: [JSONPointer]) -> [SubscriptionNode] {
        round += 1
        var found: [SubscriptionNode] = []
        for pointer in changed {
            var node = root
            collect(node, into: &found)
            var reached = true
            for token in pointer.tokens {
                guard let child = node.children[token] else {
                    reached = false
                    break
                }
                node = child
                collect(node, into: &found)
            }
            if reached { collectBelow(node, into: &found) }
        }
        return found
    }

    private func collect(_ node: SubscriptionNode, into found: inout [SubscriptionNode]) {
        guard node.visitMark != round else { return }
        node.visitMark = round
        if !node.subscribers.isEmpty { found.append(node) }
    }

    private func collectBelow(_ node: SubscriptionNode, into found: inout [SubscriptionNode]) {
        for child in node.children.values {
            collect(child, into: &found)
            collectBelow(child, into: &found)
        }
    }
}
