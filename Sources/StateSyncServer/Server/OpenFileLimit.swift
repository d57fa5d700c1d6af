#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's open-file limit (`ulimit -n`): every connection holds a
/// descriptor, so it bounds how many clients a server can hold.
enum OpenFileLimit {
    /// Descriptors the server keeps for itself beyond its connections:
    /// journals, the listener, event loops, PostgreSQL connections.
    static let reserve = 256

    /// The soft limit now, or `nil` when the system does not say (unlimited
    /// counts as `Int.max`).
    static var current: Int? {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return nil }
        return limit.rlim_cur > rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    /// A warning when `maxConnections` connections would not fit under
    /// `limit` with the server's ``reserve``, else `nil`.
    static func shortfall(maxConnections: Int, limit: Int) -> String? {
        let needed = maxConnections + reserve
        guard needed > limit else { return nil }
        return "max connections is \(maxConnections), but this process may open \(limit) files (ulimit -n): beyond about "
            + "\(max(0, limit - reserve)) connections, accepting pauses and clients wait; raise the limit to \(needed) "
            + "(ulimit -n \(needed)) or lower --max-connections"
    }

    #if canImport(Glibc)
    private static let resource = Int32(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
