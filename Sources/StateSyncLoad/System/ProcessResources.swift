import Foundation
import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU time and memory of this process and of a server process
/// (by pid, from Linux's `/proc`), and the machine's load average.
public enum ProcessResources {
    /// The number of cores.
    public static var coreCount: Int { System.coreCount }

    /// User plus system CPU seconds this process has used.
    public static func ownCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(Self.rusageSelf, &usage)
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The largest resident set this process has had, in bytes.
    public static func ownPeakRSSBytes() -> Int {
        var usage = rusage()
        getrusage(Self.rusageSelf, &usage)
        #if canImport(Darwin)
        return Int(usage.ru_maxrss)
        #else
        return Int(usage.ru_maxrss) * 1_024
        #endif
    }

    /// User plus system CPU seconds of process `pid` (`/proc/PID/stat`), or `nil` when unreadable.
    public static func cpuSeconds(pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),  // gone or not Linux: no figure
              let close = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after "(comm) ": state is field 3; utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (user + system) / ticks
    }

    /// The resident set of process `pid` in bytes (`VmRSS` of `/proc/PID/status`), or `nil`.
    public static func rssBytes(pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }  // as above
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let number = line.dropFirst("VmRSS:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
            return number.flatMap { Int($0) }.map { $0 * 1_024 }
        }
        return nil
    }

    /// The 1, 5 and 15 minute load averages (`/proc/loadavg`), or `[]`.
    public static func loadAverage() -> [Double] {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return [] }  // not Linux
        return text.split(separator: " ").prefix(3).compactMap { Double($0) }
    }

    #if canImport(Glibc)
    private static let rusageSelf = Int32(RUSAGE_SELF.rawValue)
    #else
    private static let rusageSelf = RUSAGE_SELF
    #endif

    private static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000
    }
}
