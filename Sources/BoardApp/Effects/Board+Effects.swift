public import StateSyncCore

extension Board {
    /// Dice: an accepted `postMessage` whose text is `/roll` or `/roll N` (see
    /// ``BoardRules/maxDiceSides``) rolls a die with 6 or N sides in an
    /// effect, which dispatches `.system(.rolled(by: <sender's name>, sides:
    /// N, result: 1...N))`; the reducer adds the result to the chat. The
    /// message itself stays in the chat as said.
    ///
    /// The random number is drawn in the effect, never in the reducer:
    /// reducers stay deterministic, and the journaled `rolled` command makes a
    /// replay show the same number.
    ///
    /// ```swift
    /// // alice posts "/roll 20"; a moment later the chat shows
    /// // {"from":"dice","text":"alice rolled 17 (1-20)","at":"…"}
    /// ```
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
