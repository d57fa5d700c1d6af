import FuzzCheck
import StateSyncCore

/// libFuzzer entry point for the JSON parser and serializer.
///
/// Any input: the parser either throws a `JSONParseError` whose byte offset
/// lies within the input, or gives a value `v` for which
/// - `parse(serialize(v)) == v`, with equal hashes;
/// - serializing is canonical: `serialize(parse(serialize(v))) == serialize(v)`, byte for byte;
/// - the pretty form parses to the same value;
/// - parsing the same bytes as a `String` or as a non-contiguous collection gives the same result.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    let parser = JSONParser()
    let value: JSONValue
    do {
        value = try parser.parse(UnsafeRawBufferPointer(input))
    } catch {
        check(error.byteOffset >= 0 && error.byteOffset <= size, "error offset within the input", "\(error) for \(size) bytes")
        check(!error.description.isEmpty, "errors have a message")
        checkSameOutcome(parser, input, expected: .failure(error))
        return 0
    }
    checkSameOutcome(parser, input, expected: .success(value))

    let compact = JSONSerializer().serialize(value)
    let reparsed: JSONValue
    do {
        reparsed = try parser.parse(compact)
    } catch {
        check(false, "serialized JSON parses", "\(error) in \(String(decoding: compact, as: UTF8.self))")
        return 0
    }
    check(reparsed == value, "parse(serialize(v)) == v", String(decoding: compact, as: UTF8.self))
    check(reparsed.hashValue == value.hashValue, "equal values hash equal", String(decoding: compact, as: UTF8.self))
    let again = JSONSerializer().serialize(reparsed)
    check(again == compact, "serialization is canonical",
          "\(String(decoding: compact, as: UTF8.self)) vs \(String(decoding: again, as: UTF8.self))")

    let pretty = JSONSerializer(style: .pretty).serialize(value)
    check((try? parser.parse(pretty)) == value, "the pretty form parses to the same value", String(decoding: pretty, as: UTF8.self))
    return 0
}

/// The outcome of parsing `input` through the other entry points equals `expected`.
private func checkSameOutcome(_ parser: JSONParser, _ input: UnsafeBufferPointer<UInt8>, expected: Result<JSONValue, JSONParseError>) {
    let chunked = Result { () throws(JSONParseError) in try parser.parse(input.lazy.map { $0 }) }
    check(same(chunked, expected), "a non-contiguous collection parses the same", "\(chunked) vs \(expected)")
    // A String holds valid UTF-8 only: compare where decoding did not repair anything.
    let text = String(decoding: input, as: UTF8.self)
    if text.utf8.elementsEqual(input) {
        let fromText = Result { () throws(JSONParseError) in try parser.parse(text) }
        check(same(fromText, expected), "a String parses the same", "\(fromText) vs \(expected)")
    }
}

private func same(_ lhs: Result<JSONValue, JSONParseError>, _ rhs: Result<JSONValue, JSONParseError>) -> Bool {
    switch (lhs, rhs) {
    case let (.success(a), .success(b)): a == b
    case let (.failure(a), .failure(b)): a == b
    default: false
    }
}
