import FuzzCheck
import StateSyncCore

/// libFuzzer entry point for JSON Patch: decoding, apply and diff.
///
/// The input is JSON text `[document, other]`. When `other` decodes as a
/// patch, it is applied to `document`; otherwise `other` is taken as a second
/// document. Properties:
/// - a decoded patch re-encodes to itself (`JSONPatch(jsonValue: p.jsonValue) == p`);
/// - `apply` either throws and leaves the document exactly as it was
///   (all or nothing), or gives `new` with
///   `diff(old, new).applied(to: old) == new` and `diff(new, old).applied(to: new) == old`;
/// - `diff(v, v)` is empty;
/// - for two documents, `diff(a, b).applied(to: a) == b`, and the diff's
///   JSON form decodes back to the same patch.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPatch(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard case .array(let pair)? = try? JSONParser().parse(UnsafeRawBufferPointer(input)), pair.count == 2 else { return 0 }
    let document = pair[0]
    check(JSONPatch.diff(from: document, to: document).isEmpty, "diff(v, v) is empty", "\(document)")

    guard let patch = try? JSONPatch(jsonValue: pair[1]) else {
        checkDiff(from: document, to: pair[1])
        return 0
    }
    check((try? JSONPatch(jsonValue: patch.jsonValue)) == patch, "a patch re-encodes to itself", "\(patch)")

    var result = document
    do {
        try patch.apply(to: &result)
    } catch {
        check(result == document && result.description == document.description, "a failed patch changes nothing", "\(error)")
        check(error.operationIndex.map { $0 < patch.operations.count } ?? false, "the error names an operation of the patch", "\(error)")
        return 0
    }
    checkDiff(from: document, to: result)
    checkDiff(from: result, to: document)
    return 0
}

/// `diff(old, new)` turns `old` into `new`, and its JSON form decodes to itself.
private func checkDiff(from old: JSONValue, to new: JSONValue) {
    let diff = JSONPatch.diff(from: old, to: new)
    let applied = Result { () throws(JSONPatchError) in try diff.applied(to: old) }
    check((try? applied.get()) == new, "diff(old, new).applied(to: old) == new", "old \(old)\nnew \(new)\ndiff \(diff)\ngot \(applied)")
    check((try? JSONPatch(jsonValue: diff.jsonValue)) == diff, "a diff re-encodes to itself", "\(diff)")
}
