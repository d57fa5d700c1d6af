package import Foundation

/// How stored journals keep ``JournalEntry``'s `meta.time`: the bit pattern
/// of its `timeIntervalSinceReferenceDate` in a 64-bit integer column, so
/// that a replay passes reducers the same `Date` bit for bit.
package enum StoredTime {
    /// `time` as the bit pattern of its `timeIntervalSinceReferenceDate`.
    package static func bits(_ time: Date) -> Int64 {
        Int64(bitPattern: time.timeIntervalSinceReferenceDate.bitPattern)
    }

    /// The `Date` whose bit pattern ``bits(_:)`` stored.
    package static func date(fromBits bits: Int64) -> Date {
        Date(timeIntervalSinceReferenceDate: Double(bitPattern: UInt64(bitPattern: bits)))
    }
}
