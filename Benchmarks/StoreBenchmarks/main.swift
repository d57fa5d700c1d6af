import Foundation
import StateSyncCore

// Store dispatch throughput with N observers, one of whose slices changes per
// action. Run: swift run -c release store-benchmarks [state sizes...]
// Prints markdown tables for BENCHMARKS.md ("## Store").

/// ReSwift 6.1.1's figures, measured elsewhere (the team's earlier measurement, 2026-11, machine not recorded; see BENCHMARKS.md "## Store" and docs/DESIGN.md), dispatches/s.
let reSwiftNoSubscribers = 940_000.0
let reSwiftThousandSubscribers = 2_600.0

/// The three ways of observing that are compared, in one run.
enum Mode: String, CaseIterable {
    case element = "store, element observers (`observe(\\.counters, id:)`)"
    case elementRootReduce = "store, element observers, root `Reduce` reducer (no footprint)"
    case keyPath = "store, key-path observers (`observe(\\.counters[i])`)"
    case naive = "naive select+compare baseline (ours, ReSwift-style)"
}

/// Dispatches/s for `observers` observers of distinct counters in a state of `size` counters.
func run(_ mode: Mode, observers: Int, size: Int) -> Double {
    let deliveries = DeliveryCounter()
    let targets = max(observers, 1)
    var dispatched = 0
    let throughput: Double
    switch mode {
    case .element, .elementRootReduce, .keyPath:
        let store = mode == .elementRootReduce
            ? Store(initialState: BenchState(size: size), reducer: rootReduceReducer)
            : Store(initialState: BenchState(size: size), reducer: benchReducer)
        let tokens = (0..<observers).map { id in
            mode != .keyPath
                ? store.subscribe(\.counters, id: id) { _ in deliveries.record() }
                : store.subscribe(\BenchState.counters[id]) { _ in deliveries.record() }
        }
        let initial = deliveries.value
        throughput = measureThroughput { index in
            store.send(.increment(index % targets))
            dispatched += 1
        }
        precondition(observers == 0 || deliveries.value - initial == dispatched, "each action must reach one observer")
        tokens.forEach { $0.cancel() }
    case .naive:
        let store = NaiveStore(state: BenchState(size: size))
        for id in 0..<observers {
            store.subscribe(select: { $0.counters[id] }, receive: { _ in deliveries.record() })
        }
        throughput = measureThroughput { index in
            store.dispatch(.increment(index % targets))
            dispatched += 1
        }
        precondition(observers == 0 || deliveries.value == dispatched, "each action must reach one observer")
    }
    return throughput
}

func format(_ value: Double) -> String {
    let rounded = Int(value.rounded())
    var digits = String(rounded)
    var groups: [String] = []
    while digits.count > 3 {
        groups.insert(String(digits.suffix(3)), at: 0)
        digits.removeLast(3)
    }
    groups.insert(digits, at: 0)
    return groups.joined(separator: ",")
}

// `store-benchmarks profile element 1000 1000` runs one configuration for a profiler.
if CommandLine.arguments.dropFirst().first == "profile" {
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    let mode = Mode.allCases.first { "\($0)" == arguments.first } ?? .element
    let observers = arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000
    let size = arguments.dropFirst(2).first.flatMap { Int($0) } ?? 1_000
    print("\(mode.rawValue): \(format(run(mode, observers: observers, size: size))) dispatches/s")
    exit(0)
}

let sizes = CommandLine.arguments.dropFirst().compactMap { Int($0) }
for size in sizes.isEmpty ? [1_000, 10_000] : sizes {
    print("\nState: \(format(Double(size))) counters (`[Int: Int]`); dispatches per CPU-second of the dispatching thread, best of 3 runs of ≥0.4 s\n")
    print("| observers | element observers | element, root `Reduce` | key-path observers | naive baseline (ours) | element ÷ naive | element ÷ ReSwift |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for observers in [0, 100, 1_000, 10_000] where observers <= size {
        let element = run(.element, observers: observers, size: size)
        let rootReduce = run(.elementRootReduce, observers: observers, size: size)
        let keyPath = run(.keyPath, observers: observers, size: size)
        let naive = run(.naive, observers: observers, size: size)
        let reSwift: String
        switch observers {
        case 0: reSwift = String(format: "%.2fx (940,000)", element / reSwiftNoSubscribers)
        case 1_000: reSwift = String(format: "%.0fx (2,600)", element / reSwiftThousandSubscribers)
        default: reSwift = "–"
        }
        print("| \(format(Double(observers))) | \(format(element)) | \(format(rootReduce)) | \(format(keyPath)) | \(format(naive)) | \(String(format: "%.1fx", element / naive)) | \(reSwift) |")
    }
}
