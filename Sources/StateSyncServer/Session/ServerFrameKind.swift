/// Recognizes the server messages the session layer measures (patches,
/// acks, rejects) by the fixed start that ``MessageEncoder`` writes
/// (`{"type":"patch",…`), without parsing the frame.
enum ServerFrameKind: Equatable {
    case patch
    case ack
    case reject
    case other

    private static let patchPrefix = Array(#"{"type":"patch""#.utf8)
    private static let ackPrefix = Array(#"{"type":"ack""#.utf8)
    private static let rejectPrefix = Array(#"{"type":"reject""#.utf8)

    /// The kind of the encoded frame `bytes`.
    init(_ bytes: [UInt8]) {
        if bytes.starts(with: Self.patchPrefix) {
            self = .patch
        } else if bytes.starts(with: Self.ackPrefix) {
            self = .ack
        } else if bytes.starts(with: Self.rejectPrefix) {
            self = .reject
        } else {
            self = .other
        }
    }
}
