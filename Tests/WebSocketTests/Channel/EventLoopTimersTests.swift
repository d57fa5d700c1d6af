import NIOCore
import NIOEmbedded
import Testing
@testable import WebSocket

@Suite struct EventLoopTimersTests {
    /// Records when it was due, and can arm itself again from there.
    final class Owner: EventLoopTimerOwner {
        let name: String
        var timerSlot: Int?
        var fired: [NIODeadline] = []
        var again: (() -> Void)?
        private let loop: EmbeddedEventLoop
        private let log: Log

        init(_ name: String, loop: EmbeddedEventLoop, log: Log) {
            self.name = name
            self.loop = loop
            self.log = log
        }

        func timerDue() {
            fired.append(loop.now)
            log.names.append(name)
            again?()
        }
    }

    final class Log { var names: [String] = [] }

    private let start = NIODeadline.uptimeNanoseconds(0)

    @Test func ownersAreDueInDeadlineOrderEachOnce() {
        let loop = EmbeddedEventLoop()
        let timers = EventLoopTimers.on(loop)
        let log = Log()
        let deadlines = [7, 3, 9, 1, 5, 3, 8, 2, 6, 4]
        let owners = deadlines.enumerated().map { Owner("\($0.offset)", loop: loop, log: log) }
        for (owner, seconds) in zip(owners, deadlines) {
            timers.arm(owner, at: loop.now + .seconds(Int64(seconds)))
        }
        #expect(timers.count == 10)
        loop.advanceTime(by: .seconds(4))
        #expect(Set(log.names) == ["3", "7", "1", "5", "9"])   // deadlines 1, 2, 3, 3, 4
        #expect(log.names.first == "3")
        loop.advanceTime(by: .seconds(10))
        #expect(log.names.count == 10)
        #expect(owners.allSatisfy { $0.fired.count == 1 && $0.timerSlot == nil })
        let order = log.names.map { deadlines[Int($0)!] }
        #expect(order == order.sorted())
        #expect(timers.count == 0)
    }

    @Test func armingAgainReplacesTheTimerAndNilDisarmsIt() {
        let loop = EmbeddedEventLoop()
        let timers = EventLoopTimers.on(loop)
        let log = Log()
        let (early, late, gone) = (Owner("early", loop: loop, log: log), Owner("late", loop: loop, log: log), Owner("gone", loop: loop, log: log))
        timers.arm(late, at: loop.now + .seconds(5))
        timers.arm(gone, at: loop.now + .seconds(2))
        timers.arm(early, at: loop.now + .seconds(10))
        timers.arm(early, at: loop.now + .seconds(1))   // earlier than the task scheduled: moved forward
        timers.arm(gone, at: nil)
        timers.arm(late, at: loop.now + .seconds(7))    // later: found early, re-armed
        #expect(timers.count == 2)
        loop.advanceTime(by: .seconds(1))
        #expect(log.names == ["early"])
        loop.advanceTime(by: .seconds(5))
        #expect(log.names == ["early"])
        loop.advanceTime(by: .seconds(1))
        #expect(log.names == ["early", "late"])
        loop.advanceTime(by: .seconds(60))
        #expect(log.names == ["early", "late"] && gone.fired.isEmpty)
    }

    @Test func anOwnerMayArmAgainWhenDue() {
        let loop = EmbeddedEventLoop()
        let timers = EventLoopTimers.on(loop)
        let log = Log()
        let ticking = Owner("tick", loop: loop, log: log)
        ticking.again = { [unowned ticking] in
            if ticking.fired.count < 3 { timers.arm(ticking, at: loop.now + .seconds(2)) }
        }
        timers.arm(ticking, at: loop.now + .seconds(2))
        loop.advanceTime(by: .seconds(20))
        #expect(ticking.fired == [2, 4, 6].map { self.start + .seconds($0) })
        #expect(timers.count == 0)
    }

    @Test func eachLoopHasItsOwnTimers() {
        let (first, second) = (EmbeddedEventLoop(), EmbeddedEventLoop())
        #expect(EventLoopTimers.on(first) === EventLoopTimers.on(first))
        #expect(EventLoopTimers.on(first) !== EventLoopTimers.on(second))
    }
}
