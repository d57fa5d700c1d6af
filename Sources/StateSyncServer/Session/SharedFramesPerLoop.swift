import Logging
import NIOCore

/// One ``SharedFrames`` cache per event loop: each fan-out shard frames the
/// arrays it sends to its own connections with its loop's cache, so shards
/// neither share a lock nor evict each other's last frame.
final class SharedFramesPerLoop: Sendable {
    private let caches: [ObjectIdentifier: SharedFrames]
    private let fallback: SharedFrames

    /// A cache for each loop of `group`; with `compress`, large frames also get a compressed form.
    init(group: any EventLoopGroup, compress: Bool, logger: Logger) {
        var caches: [ObjectIdentifier: SharedFrames] = [:]
        for loop in group.makeIterator() {
            caches[ObjectIdentifier(loop)] = SharedFrames(compress: compress, logger: logger)
        }
        self.caches = caches
        self.fallback = SharedFrames(compress: compress, logger: logger)
    }

    /// The cache of `loop` (a cache of its own for a loop not in the group).
    func frames(for loop: any EventLoop) -> SharedFrames {
        caches[ObjectIdentifier(loop)] ?? fallback
    }
}
