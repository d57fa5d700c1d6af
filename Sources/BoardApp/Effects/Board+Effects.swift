public import StateSyncCore

extension Board {
    /// Dice: an accepted `postMessage` of `/roll` or `/roll N` rolls a die in an effect, which
    /// dispatches `.system(.rolled(…))` for the reducer to add to the chat. The number is drawn
    /// here, never in a reducer, so reducers stay deterministic and a replay shows the same number.
    public static var effects: Effects<BoardState, SessionCommand<BoardAction>>? {
        Effects { command, _, _ in
            guard case let .dispatch(.postMessage(text), session) = command, let dice = DiceCommand(text) else { return .none }
            return .run { send in
                let result = Int64.random(in: 1...dice.sides)
                await send(.system(.rolled(by: session.name, sides: dice.sides, result: result)))
            }
        }
    }
}
