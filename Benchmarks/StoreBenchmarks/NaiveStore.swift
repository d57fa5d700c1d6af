/// OUR baseline, written here for comparison, NOT ReSwift: a ReSwift-style
/// store where every subscriber runs its selector and compares with its last
/// value after every action (`select` + `skipRepeats`), with no grouping, no
/// footprints and no lock. It is leaner than ReSwift itself (no type erasure,
/// no subscription boxes), so it is a generous baseline.
final class NaiveStore {
    private final class Subscriber {
        let select: (BenchState) -> Int?
        var last: Int?
        let receive: (Int?) -> Void

        init(select: @escaping (BenchState) -> Int?, state: BenchState, receive: @escaping (Int?) -> Void) {
            self.select = select
            self.last = select(state)
            self.receive = receive
        }
    }

    private(set) var state: BenchState
    private var subscribers: [Subscriber] = []

    init(state: BenchState) {
        self.state = state
    }

    /// Subscribes with a selector; the callback runs when the selected value changes.
    func subscribe(select: @escaping (BenchState) -> Int?, receive: @escaping (Int?) -> Void) {
        subscribers.append(Subscriber(select: select, state: state, receive: receive))
    }

    /// Reduces and then checks every subscriber.
    func dispatch(_ action: BenchAction) {
        state = naiveReduce(state, action)
        for subscriber in subscribers {
            let value = subscriber.select(state)
            if value != subscriber.last {
                subscriber.last = value
                subscriber.receive(value)
            }
        }
    }
}
