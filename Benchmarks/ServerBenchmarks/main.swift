import BoardApp
import Foundation
import StateSyncJournal
import StateSyncSQLite
import StateSyncServer

// Server engine benchmarks (BENCHMARKS.md "## Server engine, fan-out and load").
// Run: swift run -c release server-benchmarks [SECTION…]
// SECTIONs: throughput, fanout, growth, presence, todos (default: all), and
// presence-profile (2,000 joins once, for valgrind --tool=callgrind), todos-profile
// (addTodo at 5,000 todos, for perf), startup (builds a journal of 1,000,000 actions first:
// minutes; also times `statesync serve` when that binary is beside this one). The SQLite journal
// goes to a fresh directory under the temporary directory.
// Every figure comes with a baseline measured in the same run.

let sections = Set(CommandLine.arguments.dropFirst())
func runs(_ section: String) -> Bool { sections.isEmpty || sections.contains(section) }
let directory = NSTemporaryDirectory() + "statesync-server-bench-\(getpid())"
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: directory) }  // benchmark scratch space only

func format(_ value: Double, _ digits: Int = 0) -> String { String(format: "%.\(digits)f", value) }

if runs("throughput") {
print("### Acked actions per second (8 writers dispatching concurrently)\n")
print("| journal | acked actions/s | journal appends | baseline | ratio |")
print("|---|---:|---:|---|---:|")
let reducerRate = reducerOnlyPerSecond(actions: 200_000)
let memory = try await ackedActionsPerSecond(journal: MemoryJournal(), writers: 8, actions: 200_000)
print("| MemoryJournal | \(format(memory.rate)) | \(memory.appends) | reducer alone: \(format(reducerRate))/s | \(format(memory.rate / reducerRate, 3)) |")
let fsyncRate = rawFsyncsPerSecond(in: directory)
// Fresh and reopened alternate, each pair on a journal of its own, and the
// median pair is reported: one run makes only a few group commits, so a
// single slow fsync would move one pair's ratio.
var pairs: [(fresh: (rate: Double, appends: UInt64), reopened: (rate: Double, appends: UInt64))] = []
for repetition in 0..<5 {
    let journalDirectory = directory + "/journal-\(repetition)"
    let fresh = try await ackedActionsPerSecond(
        journal: try await SQLiteJournal.open(configuration: .init(directory: journalDirectory), logger: quiet),
        writers: 8, actions: 50_000)
    // Reopened: the journal has history, so every new (clientId, id) pair is checked (exactly-once across restarts).
    let reopened = try await ackedActionsPerSecond(
        journal: try await SQLiteJournal.open(configuration: .init(directory: journalDirectory), logger: quiet),
        writers: 8, actions: 50_000, idPrefix: "r")
    pairs.append((fresh, reopened))
}
let median = pairs.sorted { $0.reopened.rate / $0.fresh.rate < $1.reopened.rate / $1.fresh.rate }[pairs.count / 2]
print("| SQLiteJournal (median pair of 5) | \(format(median.fresh.rate)) | \(median.fresh.appends) | write+fsync of 200 B: \(format(fsyncRate))/s | \(format(median.fresh.rate / fsyncRate, 1)) |")
print("| SQLiteJournal, reopened (outcome lookups) | \(format(median.reopened.rate)) | \(median.reopened.appends) | write+fsync of 200 B: \(format(fsyncRate))/s | \(format(median.reopened.rate / fsyncRate, 1)) |")
// The same, with every new pair looked up in the journal (before the pairs were read at start).
let unlisted = try await ackedActionsPerSecond(
    journal: UnlistedPairsJournal(try await SQLiteJournal.open(configuration: .init(directory: directory + "/journal-0"), logger: quiet)),
    writers: 8, actions: 50_000, idPrefix: "u")
print("| SQLiteJournal, reopened, pairs not read at start (before) | \(format(unlisted.rate)) | \(unlisted.appends) | write+fsync of 200 B: \(format(fsyncRate))/s | \(format(unlisted.rate / fsyncRate, 1)) |")
let ratios = pairs.map { format($0.reopened.rate / $0.fresh.rate, 2) }.joined(separator: ", ")
print("\nreopened / fresh, 5 pairs: \(ratios); median \(format(median.reopened.rate / median.fresh.rate, 2)); before (pairs looked up): \(format(unlisted.rate / median.fresh.rate, 2))")

}

if runs("fanout") {
print("\n### Fan-out of one action (one action at a time, until every patch is delivered)\n")
print("| subscribers | time per action | vs. no subscriber | ops+rev bytes built per action | patch bytes sent per action |")
print("|---|---:|---:|---:|---:|")
let none = try await fanOut(Board.self, subscribers: 0, actions: 2_000, path: { _ in "/counters/hits" }, counter: { _ in "hits" }, expectedPerAction: 0)
print("| none (baseline) | \(format(none.secondsPerAction * 1e6, 1)) µs | 1.0 | 0 | 0 |")
for count in [1_000, 10_000] {
    let result = try await fanOut(Board.self, subscribers: count, actions: 200, path: { _ in "/counters/hits" }, counter: { _ in "hits" }, expectedPerAction: count)
    print("| \(count) of the same path | \(format(result.secondsPerAction * 1e6, 1)) µs | \(format(result.secondsPerAction / none.secondsPerAction, 1)) | \(format(result.bytesProducedPerAction)) | \(format(result.bytesSentPerAction)) |")
}
let different = try await fanOut(
    Board.self, subscribers: 10_000, actions: 2_000, path: { "/counters/c\($0)" }, counter: { "c\(($0 * 7_919) % 10_000)" }, expectedPerAction: 1)
print("| 10,000 of different paths (one changes) | \(format(different.secondsPerAction * 1e6, 1)) µs | \(format(different.secondsPerAction / none.secondsPerAction, 1)) | \(format(different.bytesProducedPerAction)) | \(format(different.bytesSentPerAction)) |")

}

if runs("growth") {
print("\n### Cost per one-field action as the state grows (subscriber of the whole state)\n")
print("| state | time per action | vs. 1 KB | whole-state patch frame |")
print("|---|---:|---:|---:|")
let small = try await costPerAction(Size1KB.self, actions: 2_000)
func row<Size: BoardSize>(_ size: Size.Type, actions: Int) async throws {
    let result = try await costPerAction(size, actions: actions)
    print("| \(Size.label) (\(result.stateBytes) B snapshot) | \(format(result.seconds * 1e6, 1)) µs | \(format(result.seconds / small.seconds, 2)) | \(result.patchFrameBytes) B |")
}
print("| 1 KB (\(small.stateBytes) B snapshot) | \(format(small.seconds * 1e6, 1)) µs | 1.00 | \(small.patchFrameBytes) B |")
try await row(Size100KB.self, actions: 2_000)
try await row(Size1MB.self, actions: 2_000)
try await row(Size10MB.self, actions: 1_000)
}

if runs("presence") {
print("\n### Sessions joining (each join is a presence change of the state)\n")
print("| sessions | time per join | vs. 1,000 |")
print("|---|---:|---:|")
let base = try await secondsPerJoin(sessions: 1_000)
print("| 1,000 | \(format(base * 1e6, 1)) µs | 1.00 |")
for (count, label) in [(2_000, "2,000"), (4_000, "4,000"), (10_000, "10,000")] {
    let perJoin = try await secondsPerJoin(sessions: count)
    print("| \(label) | \(format(perJoin * 1e6, 1)) µs | \(format(perJoin / base, 2)) |")
}
}

if runs("presence") {
print("\n### One join and one leave with N sessions present\n")
print("| present | time per join | vs. 10 present | time per leave | vs. 10 present |")
print("|---|---:|---:|---:|---:|")
let few = try await secondsPerJoinAndLeave(present: 10)
print("| 10 | \(format(few.join * 1e6, 1)) µs | 1.00 | \(format(few.leave * 1e6, 1)) µs | 1.00 |")
for (count, label) in [(1_000, "1,000"), (10_000, "10,000")] {
    let cost = try await secondsPerJoinAndLeave(present: count)
    print("| \(label) | \(format(cost.join * 1e6, 1)) µs | \(format(cost.join / few.join, 2)) | \(format(cost.leave * 1e6, 1)) µs | \(format(cost.leave / few.leave, 2)) |")
}
}

if runs("todos") {
print("\n### Todo actions as the todos grow (one at a time until the ack)\n")
print("| todos | subscriber | footprint | addTodo | vs. 100 todos | toggleTodo | vs. 100 todos |")
print("|---|---|---|---:|---:|---:|---:|")
for subscribed in [false, true] {
    let label = subscribed ? "/todos" : "none"
    let elementBase = try await todoCosts(TodoBoard<Todos100>.self, actions: 1_000, subscribed: subscribed)
    let wholeBase = try await todoCosts(WholeTodosBoard<Todos100>.self, actions: 1_000, subscribed: subscribed)
    func row(_ todos: String, _ footprint: String, _ cost: (add: Double, toggle: Double), _ base: (add: Double, toggle: Double)) {
        print("| \(todos) | \(label) | \(footprint) | \(format(cost.add * 1e6, 1)) µs | \(format(cost.add / base.add, 2)) | \(format(cost.toggle * 1e6, 1)) µs | \(format(cost.toggle / base.toggle, 2)) |")
    }
    row("100", "element", elementBase, elementBase)
    row("100", "whole `todos` (before)", wholeBase, wholeBase)
    row("1,000", "element", try await todoCosts(TodoBoard<Todos1000>.self, actions: 1_000, subscribed: subscribed), elementBase)
    row("1,000", "whole `todos` (before)", try await todoCosts(WholeTodosBoard<Todos1000>.self, actions: 300, subscribed: subscribed), wholeBase)
    row("5,000", "element", try await todoCosts(TodoBoard<Todos5000>.self, actions: 1_000, subscribed: subscribed), elementBase)
    row("5,000", "whole `todos` (before)", try await todoCosts(WholeTodosBoard<Todos5000>.self, actions: 100, subscribed: subscribed), wholeBase)
}
}

if sections.contains("todos-profile") {
let cost = try await todoCosts(TodoBoard<Todos5000>.self, actions: 20_000, subscribed: true)
print("5,000 todos: addTodo \(format(cost.add * 1e6, 1)) µs, toggleTodo \(format(cost.toggle * 1e6, 1)) µs")
}

if sections.contains("startup") {
print("\n### Start-up from a journal of 1,000,000 actions, a snapshot every 500\n")
let data = directory + "/startup"
let buildStart = now()
let revision = try await buildDataDirectory(data, actions: 1_000_000, snapshotEvery: 500)
let bytes = (try? FileManager.default.subpathsOfDirectory(atPath: data))?.reduce(0) { total, file in
    total + (((try? FileManager.default.attributesOfItem(atPath: data + "/" + file))?[.size] as? Int) ?? 0)
} ?? 0
print("built: revision \(revision), \(bytes / 1_000_000) MB, in \(format(now() - buildStart, 1)) s\n")
print("| measurement | run 1 | run 2 | run 3 |")
print("|---|---:|---:|---:|")
var engineTimes: [String] = []
for _ in 0..<3 { engineTimes.append(format(try await secondsToFirstAck(directory: data) * 1e3, 0) + " ms") }
print("| in process: open the journal, recover, first ack | " + engineTimes.joined(separator: " | ") + " |")
let serve = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("statesync").path
if FileManager.default.isExecutableFile(atPath: serve) {
    var serveTimes: [String] = []
    for _ in 0..<3 { serveTimes.append(try secondsUntilHealthy(executable: serve, directory: data).map { format($0 * 1e3, 0) + " ms" } ?? "no answer") }
    print("| `statesync serve --data DIR` until `GET /health` answers 200 | " + serveTimes.joined(separator: " | ") + " |")
} else {
    print("(no statesync binary beside this one: `swift build -c release --product statesync` to time serve)")
}
}

if sections.contains("presence-profile") {
let perJoin = try await secondsPerJoin(sessions: 2_000)
print("2,000 joins: \(format(perJoin * 1e6, 1)) µs per join")
}
