#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// This process's open-file limit (`ulimit -n`), which bounds how many connections it can have open.
///
/// ```swift
/// let limit = OpenFileLimit.raise(atLeast: 30_000)   // the soft limit now in force
/// ```
public enum OpenFileLimit {
    /// The soft limit now, or `nil` when the system does not say
    /// (unlimited counts as `Int.max`).
    public static var current: Int? {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return nil }
        return count(limit.rlim_cur)
    }

    /// Raises the soft limit to the hard limit, and both to `needed` when higher and allowed (`CAP_SYS_RESOURCE`,
    /// capped at `fs.nr_open`); children inherit it. Returns the soft limit in force (0 when the system does not say).
    @discardableResult
    public static func raise(atLeast needed: Int = 0) -> Int {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return 0 }
        let wanted = rlim_t(max(0, needed))
        if wanted > limit.rlim_max {
            var higher = limit
            (higher.rlim_cur, higher.rlim_max) = (wanted, wanted)
            if setrlimit(resource, &higher) == 0 { return count(wanted) }
        }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return count(limit.rlim_cur)
    }

    private static func count(_ value: rlim_t) -> Int {
        value > rlim_t(Int.max) ? Int.max : Int(value)
    }

    #if canImport(Glibc)
    private static let resource = Int32(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
