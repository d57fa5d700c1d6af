#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Stops the fuzz run when a property does not hold: prints `property` and
/// `details` to standard error, then aborts, which libFuzzer reports as a
/// crash and saves the input that caused it (`crash-<sha1>` in the artifact
/// directory).
///
/// ```swift
/// check(reparsed == value, "parse(serialize(v)) == v", "\(value) became \(reparsed)")
/// ```
public func check(_ condition: Bool, _ property: StaticString, _ details: @autoclosure () -> String = "") {
    guard !condition else { return }
    var text = "PROPERTY FAILED: \(property)\n\(details())\n"
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    abort()
}

/// The fuzzer's input as a buffer (empty when `size` is 0, whatever `data` is).
public func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeBufferPointer<UInt8> {
    guard let data, size > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(start: data, count: size)
}
