import BoardApp
import Observation
import OpenCombineShim
import StateSyncClient
import StateSyncCombine
import StateSyncCore
import StateSyncTestSupport
import Synchronization
import Testing

// The screen of docs/observing.md, written three ways, line for line: a
// todo list and a "saving…" mark while this client's actions are unanswered.
// `show` stands for a view's drawing. Change the guide and this file together.

/// The screen with Observation: what `render` reads is what invalidates it.
final class ObservedTodoScreen: Sendable {
    let board: ObservableMirror<Board>
    let show: @Sendable (String) -> Void

    init(board: ObservableMirror<Board>, show: @escaping @Sendable (String) -> Void) {
        self.board = board
        self.show = show
        render()
    }

    func render() {
        withObservationTracking {
            let titles = board.state.todos.map(\.title).joined(separator: ", ")
            show(board.isPending ? "\(titles) (saving…)" : titles)
        } onChange: { [self] in
            render()   // SwiftUI redraws by itself; here the screen draws again
        }
    }
}

/// The screen with `AsyncSequence`s: one loop per slice, in a task of the screen's.
func streamTodoScreen(_ board: OptimisticMirror<Board>, show: @escaping @Sendable (String) -> Void) async {
    for await todos in board.observe(\.todos) {
        show(todos.map(\.title).joined(separator: ", "))
    }
}

/// The screen with a Combine-style publisher, as with an RxSwift driver.
func publishTodoScreen(_ board: OptimisticMirror<Board>, show: @escaping @Sendable (String) -> Void) -> AnyCancellable {
    board.publisher(\.todos)
        .map { $0.map(\.title).joined(separator: ", ") }
        .sink { show($0) }
}

@Suite(.timeLimit(.minutes(1))) struct ObservingGuideTests {
    @Test func theSameScreenShowsTheSameTodosAllThreeWays() async throws {
        try await TestServer.with { server in
            try await StateSyncClient.withConnection(StateSyncClientConfiguration(url: server.url)) { client in
                let board = try await client.mirror(Board.self, optimistic: true)
                let observed = Mutex<[String]>([]), streamed = Mutex<[String]>([]), published = Mutex<[String]>([])
                let screen = ObservedTodoScreen(board: board.observable) { line in observed.withLock { $0.append(line) } }
                let (shown, shownContinuation) = AsyncStream.makeStream(of: String.self)
                let streaming = Task {
                    await streamTodoScreen(board) { line in
                        streamed.withLock { $0.append(line) }
                        shownContinuation.yield(line)
                    }
                }
                defer { streaming.cancel() }
                let cancellable = publishTodoScreen(board) { line in published.withLock { $0.append(line) } }
                defer { cancellable.cancel() }

                try await board.dispatch(.addTodo(title: "Milk"))
                try await board.dispatch(.addTodo(title: "Bread"))
                for await line in shown where line == "Milk, Bread" { break }

                #expect(screen.board.state.todos.count == 2)
                #expect(observed.withLock { $0.first } == "")
                #expect(observed.withLock { $0.contains("Milk (saving…)") }, "\(observed.withLock { $0 })")
                #expect(observed.withLock { $0.last } == "Milk, Bread")
                #expect(published.withLock { $0.last } == "Milk, Bread")
                #expect(streamed.withLock { $0.last } == "Milk, Bread")
            }
        }
    }
}
