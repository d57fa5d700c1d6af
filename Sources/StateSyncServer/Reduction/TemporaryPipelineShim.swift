// TEMPORARY until issue15-core merges: the Core API this server code is written against.
import StateSyncCore

struct ActionPipeline<State: Sendable, Action: Sendable>: Sendable {
    let reducer: any Reducer<State, Action>
    init(reducer: any Reducer<State, Action>, middleware: [any Middleware<State, Action>] = [], effects: Effects<State, Action>? = nil) {
        self.reducer = reducer
    }
    func process(_ action: Action, state: inout State, meta: Meta) -> ActionPipelineOutcome<Action> {
        do throws(Rejection) {
            return .accepted(try reducer.reduce(into: &state, action: action, meta: meta), effect: .none)
        } catch {
            return .rejected(error)
        }
    }
}
enum ActionPipelineOutcome<Action: Sendable> {
    case accepted(Footprint, effect: Effect<Action>)
    case rejected(Rejection)
}
final class EffectRunner<Action: Sendable>: Sendable {
    init() {}
    func start(_ effect: Effect<Action>, send: @escaping @Sendable (Action) async -> Void) {}
    func shutdown() async {}
}
enum SessionCommandCoding {
    static func encode<Action: WireAction>(_ command: SessionCommand<Action>) -> [UInt8] {
        switch command {
        case let .dispatch(action, session): CommandCoding.dispatch(action.wireValue, from: session)
        case .sessionJoined(let session): CommandCoding.sessionEvent(joined: true, session)
        case .sessionLeft(let session): CommandCoding.sessionEvent(joined: false, session)
        case .serverStarted: CommandCoding.serverStarted
        }
    }
    static func decode<Action: WireAction>(_ bytes: [UInt8], as type: Action.Type) throws -> SessionCommand<Action> {
        try CommandCoding.decode(bytes, as: type)
    }
}
