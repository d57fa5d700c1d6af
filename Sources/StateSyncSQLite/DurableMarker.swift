/// What an ``SQLiteJournal`` holds beside its database file: the data
/// directory's lock and the durable record it updates after each commit.
struct DurableMarker: Sendable {
    let directory: DataDirectory
    let record: DurableRecord
    let epoch: String

    /// Records `revision` as durable; `false` when the record could not be written.
    func mark(_ revision: UInt64) -> Bool {
        record.write(DurableRecord.Mark(epoch: epoch, revision: revision))
    }

    /// Flushes and closes the record, and releases the directory's lock.
    func release() {
        record.flushAndClose()
        directory.unlock()
    }
}
