/// Samples the server process's CPU time and resident memory, when its
/// process id is known and it runs on this machine.
struct ServerProbe: Sendable {
    let pid: Int32

    struct Sample {
        var cpuSeconds: Double
        var rssBytes: Int
        /// Each thread's CPU time (empty without `/proc`).
        var threads: [ThreadCPU]
    }

    func sample() -> Sample? {
        guard let cpu = ProcessResources.cpuSeconds(pid: pid), let rss = ProcessResources.rssBytes(pid: pid) else { return nil }
        return Sample(cpuSeconds: cpu, rssBytes: rss, threads: ThreadCPU.threads(of: pid))
    }
}
