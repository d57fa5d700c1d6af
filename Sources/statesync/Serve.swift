import ArgumentParser

/// `statesync serve`.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the board app over WebSocket.")

    func run() async throws {}
}
