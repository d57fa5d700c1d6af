#if canImport(Glibc)
import Glibc
#endif

/// How many malloc arenas `serve` lets glibc make: two per core, not glibc's eight, as a page
/// freed in one arena is not given back while others on it are in use; two keep the event
/// loops and the pool off each other's allocations (docs/operations.md, "Memory the process keeps").
enum MallocArenas {
    /// The cap for `cores` cores; `nil` when the environment sets
    /// `MALLOC_ARENA_MAX` (glibc then follows it).
    static func cap(environment: [String: String], cores: Int) -> Int? {
        environment["MALLOC_ARENA_MAX"] == nil ? 2 * max(1, cores) : nil
    }

    /// Applies ``cap(environment:cores:)`` with glibc's `mallopt` (found at
    /// run time: `malloc.h` is not in Swift's Glibc module); elsewhere nothing.
    static func limit(environment: [String: String], cores: Int) {
        #if canImport(Glibc)
        guard let cap = cap(environment: environment, cores: cores),
              let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt")   // RTLD_DEFAULT
        else { return }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        _ = unsafeBitCast(symbol, to: Mallopt.self)(arenaMax, Int32(clamping: cap))
        #endif
    }

    /// `M_ARENA_MAX` of glibc's `malloc.h`.
    private static let arenaMax: Int32 = -8
}
