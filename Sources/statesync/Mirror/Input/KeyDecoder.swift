/// A key the command line reacts to.
enum Key: Sendable, Hashable {
    /// Typed text (one or more characters).
    case text(String)
    /// Return.
    case enter
    /// Backspace: delete the last character.
    case backspace
    /// Ctrl-U: clear the line.
    case clearLine
    /// Ctrl-W: delete the last word.
    case deleteWord
    /// Ctrl-C.
    case interrupt
    /// Ctrl-D.
    case endOfInput
}

/// Turns the bytes a terminal in raw mode sends into ``Key``s: UTF-8 text
/// (a character split across reads is kept until complete), control keys,
/// and escape sequences (arrows, function keys), which are skipped.
struct KeyDecoder: Sendable {
    private enum State: Sendable {
        case ground
        /// After ESC.
        case escape
        /// Inside `ESC [ …` until its final byte.
        case controlSequence
        /// After `ESC O`: one more byte.
        case singleShift
    }

    private var state = State.ground
    /// The start of a UTF-8 sequence that has not fully arrived.
    private var partial: [UInt8] = []

    /// The keys in `bytes`.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
        var keys: [Key] = []
        var text: [UInt8] = partial
        partial = []
        func flushText() {
            if !text.isEmpty {
                keys.append(.text(String(decoding: text, as: UTF8.self)))
                text = []
            }
        }
        for byte in bytes {
            switch state {
            case .escape:
                state = byte == UInt8(ascii: "[") ? .controlSequence : byte == UInt8(ascii: "O") ? .singleShift : .ground
                continue
            case .controlSequence:
                if (0x40...0x7E).contains(byte) { state = .ground }
                continue
            case .singleShift:
                state = .ground
                continue
            case .ground:
                break
            }
            if byte >= 0x20 && byte != 0x7F {
                text.append(byte)
                continue
            }
            flushText()
            switch byte {
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x15: keys.append(.clearLine)
            case 0x17: keys.append(.deleteWord)
            case 0x03: keys.append(.interrupt)
            case 0x04: keys.append(.endOfInput)
            case 0x1B: state = .escape
            default: break   // other control keys do nothing
            }
        }
        partial = Self.incompleteSuffix(of: text)
        text.removeLast(partial.count)
        flushText()
        return keys
    }

    /// The trailing bytes of `bytes` that begin a UTF-8 character not yet complete.
    private static func incompleteSuffix(of bytes: [UInt8]) -> [UInt8] {
        // A lead byte among the last three whose sequence runs past the end.
        guard !bytes.isEmpty else { return [] }
        for back in 1...min(4, bytes.count) {
            let byte = bytes[bytes.count - back]
            guard byte & 0xC0 != 0x80 else { continue }   // a continuation byte: look further back
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            return length > back ? Array(bytes.suffix(back)) : []
        }
        return []
    }
}
