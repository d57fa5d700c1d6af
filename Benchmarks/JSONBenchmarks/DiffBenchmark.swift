import StateSyncCore

/// The cost of `JSONPatch.diff` for one-field changes as the state grows.
/// Each new state is made from the old one by one in-place change, as a
/// reducer would, so the two share every untouched subtree.
enum DiffBenchmark {
    static func run(_ documents: [(name: String, value: JSONValue)]) throws {
        print("")
        print("## Diff of a one-field change (ns per JSONPatch.diff)")
        print("| document | todos | counter change | focused diff at /counters/hits | todo toggled in the middle |")
        print("|---|---:|---:|---:|---:|")
        var counterTimes: [Double] = []
        var toggleTimes: [Double] = []
        let hits = try JSONPointer(parsing: "/counters/hits")
        for document in documents {
            let old = document.value
            var counterChanged = old
            counterChanged["counters"]?["hits"] = 1
            let todoCount = old["todos"]!.arrayValue!.count
            let middle = todoCount / 2
            var toggled = old
            toggled["todos"]?[middle]?["done"] = .bool(old["todos"]?[middle]?["done"] != true)
            precondition(JSONPatch.diff(from: old, to: counterChanged).operations.count == 1)
            precondition(JSONPatch.diff(from: old, to: toggled).operations.count == 1)
            let counter = Timing.bestNanoseconds(iterations: 100_000) { blackHole(JSONPatch.diff(from: old, to: counterChanged)) }
            let focused = Timing.bestNanoseconds(iterations: 100_000) {
                blackHole(JSONPatch.diff(from: old, to: counterChanged, at: hits))
            }
            let toggleSample = Timing.bestNanoseconds(rounds: 1, iterations: 1) { blackHole(JSONPatch.diff(from: old, to: toggled)) }
            let toggle = Timing.bestNanoseconds(iterations: Timing.iterations(forSample: toggleSample, budget: 0.1)) {
                blackHole(JSONPatch.diff(from: old, to: toggled))
            }
            counterTimes.append(counter)
            toggleTimes.append(toggle)
            print("| \(document.name) | \(todoCount) | \(Timing.format(counter)) | \(Timing.format(focused)) | \(Timing.format(toggle)) |")
        }
        print("")
        print("Ratio 10 MB / 1 KB: counter change \(Timing.format(counterTimes.last! / counterTimes.first!, digits: 2))x; "
            + "todo toggle \(Timing.format(toggleTimes.last! / toggleTimes.first!, digits: 0))x "
            + "(the changed array itself grew \(documents.last!.value["todos"]!.arrayValue!.count / documents.first!.value["todos"]!.arrayValue!.count)x)")
        try runWideObjects()
    }

    /// One member changed in an object of n members: the members are
    /// skipped by raw comparison, so the cost grows with n but stays small
    /// per member.
    private static func runWideObjects() throws {
        print("")
        print("## Diff of one changed member in an object of n members (ns per diff)")
        print("| n | ns | ns per member |")
        print("|---:|---:|---:|")
        for count in [10, 1_000, 100_000] {
            var object = JSONObject()
            for index in 0..<count { object["member\(index)"] = .integer(Int64(index)) }
            let old = JSONValue.object(object)
            var new = old
            new["member\(count / 2)"] = -1
            let time = Timing.bestNanoseconds(iterations: max(1, 10_000_000 / count)) { blackHole(JSONPatch.diff(from: old, to: new)) }
            print("| \(count) | \(Timing.format(time)) | \(Timing.format(time / Double(count), digits: 2)) |")
        }
    }
}
