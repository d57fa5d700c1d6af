import FuzzCheck
import StateSyncCore
import StateSyncProtocol

/// libFuzzer entry point for the protocol message decoder, read both as a
/// client message (what the server reads) and as a server message (what a
/// client reads), with the server's path limits.
///
/// Properties, for each direction: decoding either throws a
/// `ProtocolError` whose `error` message itself encodes and decodes to the
/// same `error` (so the server's answer to bad input is always a valid
/// message), or gives a message `m` with `decode(encode(m)) == m` and
/// `encode(decode(encode(m))) == encode(m)` byte for byte.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMessages(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    let decoder = MessageDecoder()
    let encoder = MessageEncoder()

    do {
        let message = try decoder.decodeClientMessage(input)
        let bytes = encoder.encode(message)
        let again = Result { () throws(ProtocolError) in try decoder.decodeClientMessage(bytes) }
        check((try? again.get()) == message, "decode(encode(m)) == m for client messages", "\(message) → \(again)")
        check(encoder.encode(message) == bytes, "client message encoding is deterministic")
    } catch {
        checkErrorMessage(error, decoder: decoder, encoder: encoder)
    }

    do {
        let message = try decoder.decodeServerMessage(input)
        let bytes = encoder.encode(message)
        let again = Result { () throws(ProtocolError) in try decoder.decodeServerMessage(bytes) }
        check((try? again.get()) == message, "decode(encode(m)) == m for server messages", "\(message) → \(again)")
        if case .success(let decoded) = again {
            check(encoder.encode(decoded) == bytes, "server message encoding is canonical")
        }
    } catch {
        checkErrorMessage(error, decoder: decoder, encoder: encoder)
    }
    return 0
}

/// The `error` message the server would send for `error` is valid and decodes to itself.
private func checkErrorMessage(_ error: ProtocolError, decoder: MessageDecoder, encoder: MessageEncoder) {
    check(!error.message.isEmpty, "protocol errors have a message", "\(error.code)")
    let reply = ServerMessage.error(error)
    let bytes = encoder.encode(reply)
    let decoded = Result { () throws(ProtocolError) in try decoder.decodeServerMessage(bytes) }
    check((try? decoded.get()) == reply, "the error reply decodes to itself", "\(reply) → \(decoded)")
}
