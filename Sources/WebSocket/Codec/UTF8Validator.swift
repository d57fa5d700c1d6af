public import NIOCore

/// An incremental UTF-8 validator for text that arrives in pieces: an automaton over the well-formed sequences of
/// Unicode table 3-7 (no overlong forms, surrogates or values above U+10FFFF). It fails at the first byte that
/// cannot continue a valid sequence, so a bad text message fails (1007) with the frame that carries that byte.
///
/// ```swift
/// var validator = UTF8Validator()
/// try validator.validate(ByteBuffer(bytes: [0xE2, 0x82]))   // first frame: "€" cut short
/// try validator.validate(ByteBuffer(bytes: [0xAC]))         // continuation completes it
/// try validator.finish()                                    // the message ends on a boundary
/// ```
public struct UTF8Validator: Sendable {
    private var state: UInt8 = Self.accept
    /// How many bytes were fed so far; offsets in errors count from here.
    public private(set) var bytesValidated = 0

    /// A validator at the start of a text.
    public init() {}

    /// Whether the bytes so far end on a character boundary (and are valid).
    public var isAtCharacterBoundary: Bool { state == Self.accept }

    /// Checks the next bytes of the text; throws ``WebSocketProtocolError/invalidUTF8(offset:)`` with the index,
    /// over everything fed so far, of the first invalid byte.
    public mutating func validate(_ buffer: ByteBuffer) throws(WebSocketProtocolError) {
        let failure = buffer.withUnsafeReadableBytes { run(over: $0) }
        if let failure { throw .invalidUTF8(offset: failure) }
    }

    /// Checks the next bytes of the text, given as raw memory.
    ///
    /// - Throws: ``WebSocketProtocolError/invalidUTF8(offset:)`` as ``validate(_:)-(ByteBuffer)``.
    public mutating func validate(_ bytes: UnsafeRawBufferPointer) throws(WebSocketProtocolError) {
        if let failure = run(over: bytes) { throw .invalidUTF8(offset: failure) }
    }

    /// Checks that the text ends on a character boundary; throws ``WebSocketProtocolError/truncatedUTF8(length:)``
    /// otherwise.
    public func finish() throws(WebSocketProtocolError) {
        guard state == Self.accept else { throw .truncatedUTF8(length: bytesValidated) }
    }

    /// Validates a whole text at once.
    public static func isValid(_ buffer: ByteBuffer) -> Bool {
        var validator = UTF8Validator()
        do {
            try validator.validate(buffer)
            try validator.finish()
            return true
        } catch {
            return false
        }
    }

    /// Runs the automaton; returns the global offset of the first invalid byte, if any.
    private mutating func run(over bytes: UnsafeRawBufferPointer) -> Int? {
        let start = bytesValidated
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress else { return state == Self.reject ? start : nil }
        var state = self.state
        var index = 0
        defer {
            self.state = state
            self.bytesValidated = start + index
        }
        return Self.transitions.withUnsafeBufferPointer { transitions in
            Self.byteClasses.withUnsafeBufferPointer { classes in
                while index < count {
                    if state == Self.accept {
                        while index &+ 8 <= count,
                            base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                        {
                            index &+= 8
                        }
                        if index == count { break }
                    }
                    let byte = base.load(fromByteOffset: index, as: UInt8.self)
                    let next = transitions[Int(state) &* Self.classCount &+ Int(classes[Int(byte)])]
                    if next == Self.reject {
                        state = next
                        return start &+ index
                    }
                    state = next
                    index &+= 1
                }
                return nil
            }
        }
    }

    // States: 0 accept; 1/2/3 need that many continuation bytes (80–BF);
    // 4 after E0 (needs A0–BF); 5 after ED (needs 80–9F); 6 after F0
    // (needs 90–BF); 7 after F4 (needs 80–8F); 8 reject.
    private static let accept: UInt8 = 0
    private static let reject: UInt8 = 8
    private static let classCount = 12

    // Classes: 0 ASCII; 1 80–8F; 2 90–9F; 3 A0–BF; 4 C2–DF; 5 E0; 6 E1–EC, EE–EF;
    // 7 ED; 8 F0; 9 F1–F3; 10 F4; 11 never valid (C0, C1, F5–FF).
    private static let byteClasses: [UInt8] = (0...255).map { byte -> UInt8 in
        switch byte {
        case 0x00...0x7F: 0
        case 0x80...0x8F: 1
        case 0x90...0x9F: 2
        case 0xA0...0xBF: 3
        case 0xC2...0xDF: 4
        case 0xE0: 5
        case 0xE1...0xEC, 0xEE...0xEF: 6
        case 0xED: 7
        case 0xF0: 8
        case 0xF1...0xF3: 9
        case 0xF4: 10
        default: 11
        }
    }

    private static let transitions: [UInt8] = {
        var table = [UInt8](repeating: reject, count: 9 * classCount)
        func set(_ state: Int, _ classes: [Int], _ next: UInt8) {
            for byteClass in classes { table[state * classCount + byteClass] = next }
        }
        set(0, [0], 0)
        set(0, [4], 1)
        set(0, [6], 2)
        set(0, [9], 3)
        set(0, [5], 4)
        set(0, [7], 5)
        set(0, [8], 6)
        set(0, [10], 7)
        set(1, [1, 2, 3], 0)
        set(2, [1, 2, 3], 1)
        set(3, [1, 2, 3], 2)
        set(4, [3], 1)
        set(5, [1, 2], 1)
        set(6, [2, 3], 2)
        set(7, [1], 2)
        return table
    }()
}
