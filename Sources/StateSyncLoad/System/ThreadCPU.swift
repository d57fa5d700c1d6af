import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The CPU time of one thread of a process (Linux's `/proc/PID/task/TID/stat`).
struct ThreadCPU: Sendable, Equatable {
    /// The thread id.
    var id: Int32
    /// Its name (`comm`, e.g. `NIO-ELT-0-#1`).
    var name: String
    /// User plus system CPU seconds it has used.
    var seconds: Double

    /// Every thread of process `pid`, or `[]` when `/proc` cannot be read
    /// (the process is gone, or this is not Linux).
    static func threads(of pid: Int32) -> [ThreadCPU] {
        let directory = "/proc/\(pid)/task"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }  // gone or not Linux: no figures
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return entries.compactMap { entry in
            guard let id = Int32(entry),
                  let stat = try? String(contentsOfFile: "\(directory)/\(entry)/stat", encoding: .utf8)  // a thread that just ended: skipped
            else { return nil }
            return parse(stat: stat, id: id, ticksPerSecond: ticks)
        }
    }

    /// A thread from the text of its `stat` file: `TID (comm) state …`,
    /// where utime and stime are fields 14 and 15 and `comm` may hold
    /// spaces and parentheses (hence the last `)`).
    static func parse(stat: String, id: Int32, ticksPerSecond: Double) -> ThreadCPU? {
        guard let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"), open < close else { return nil }
        let name = String(stat[stat.index(after: open)..<close])
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]), ticksPerSecond > 0 else { return nil }
        return ThreadCPU(id: id, name: name, seconds: (user + system) / ticksPerSecond)
    }

    /// Each thread's share of one core between `start` and `end`, taken
    /// `seconds` apart, busiest first; threads below `minimumPercent` are left out.
    static func shares(
        from start: [ThreadCPU], to end: [ThreadCPU], over seconds: Double, minimumPercent: Double = 1
    ) -> [LoadResult.ThreadShare] {
        guard seconds > 0 else { return [] }
        let before = Dictionary(start.map { ($0.id, $0.seconds) }, uniquingKeysWith: { first, _ in first })
        return end.compactMap { thread in
            let percent = (thread.seconds - (before[thread.id] ?? 0)) / seconds * 100
            return percent >= minimumPercent ? LoadResult.ThreadShare(name: thread.name, cpuPercent: percent) : nil
        }
        .sorted { $0.cpuPercent > $1.cpuPercent }
    }
}
