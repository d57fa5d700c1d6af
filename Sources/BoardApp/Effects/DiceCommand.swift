/// A `/roll` chat command: `/roll` (six sides) or `/roll N` with N from 2 to
/// ``BoardRules/maxDiceSides``, surrounding whitespace ignored; other text is plain chat.
struct DiceCommand: Equatable {
    /// The sides of the die to roll.
    let sides: Int64

    /// The command in `text`, or `nil` when `text` is not one.
    init?(_ text: String) {
        let words = text.split(whereSeparator: \.isWhitespace)
        guard words.first == "/roll", words.count <= 2 else { return nil }
        guard let word = words.dropFirst().first else {
            sides = 6
            return
        }
        guard let sides = Int64(word), (2...BoardRules.maxDiceSides).contains(sides) else {
            return nil
        }
        self.sides = sides
    }
}
