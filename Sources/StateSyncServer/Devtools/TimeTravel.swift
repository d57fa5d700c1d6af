import StateSyncCore
import StateSyncJournal

/// Rebuilds past states for devtools, read-only: the nearest snapshot, then
/// entries replayed with their ``Meta`` (docs/DESIGN.md, section "Invariants",
/// 2). Reads the journal beside the engine, never the live state.
struct TimeTravel<App: StateSyncApp>: Sendable {
    /// A revision's state and how it was rebuilt.
    struct Rebuilt {
        /// The revision.
        var revision: UInt64
        /// The snapshot it started from (0 with no snapshot: the initial state).
        var snapshotRevision: UInt64
        /// The state document at `revision`.
        var state: JSONValue
    }

    /// One journal entry with the JSON Patch it made to the whole state.
    struct Step {
        /// The entry.
        var entry: JournalEntry
        /// RFC 6902 operations from the state before it to the state after it
        /// (paths from the root); `nil` when the state before the range could
        /// not be rebuilt.
        var patch: JSONPatch?
    }

    /// Entries of a range and, when their patches are missing, why.
    struct Steps {
        /// The entries in order.
        var steps: [Step]
        /// Why the steps carry no patch (the state before them is gone), or `nil`.
        var patchesUnavailable: String?
    }

    /// The journal to read (shared with the engine; reads are concurrent-safe).
    let journal: any Journal

    /// The state at `revision`.
    ///
    /// - Throws: ``DevtoolsError``: the revision is ahead of the journal, its
    ///   entries are gone (a trimmed memory journal), or replay failed.
    func state(at revision: UInt64) async throws(DevtoolsError) -> Rebuilt {
        let rebuilt = try await rebuild(at: revision)
        return Rebuilt(revision: revision, snapshotRevision: rebuilt.snapshot, state: try encode(rebuilt.state))
    }

    /// The kept entries `from...through`, each with its whole-state patch when the
    /// state before it can be rebuilt; a ``StateMirror`` keeps each diff's cost to
    /// what the entry changed.
    func steps(from: UInt64, through: UInt64) async throws(DevtoolsError) -> Steps {
        let entries: [JournalEntry]
        do {
            let oldest = try await journal.oldestRevision() ?? from
            entries = try await journal.entries(from: max(from, oldest), through: through)
        } catch {
            throw .failed("reading journal entries \(from)...\(through) failed: \(error)")
        }
        guard let first = entries.first else { return Steps(steps: []) }
        var state: App.State
        do {
            state = try await rebuild(at: first.revision - 1).state
        } catch {
            // Older history is gone: the entries still show, without patches.
            return Steps(steps: entries.map { Step(entry: $0, patch: nil) }, patchesUnavailable: "\(error)")
        }
        var steps: [Step] = []
        do throws(SyncEngineError) {
            var mirror = try StateMirror<App>(state)
            for entry in entries {
                let before = mirror.json
                let footprint = try RecoveredState<App>.apply(entry, to: &state)
                try mirror.update(to: state, footprint: footprint)
                _ = mirror.takeChange()   // the engine's fan-out bookkeeping: not needed here
                steps.append(Step(entry: entry, patch: JSONPatch.diff(from: before, to: mirror.json)))
            }
        } catch {
            throw .failed("replaying revisions \(first.revision)...\(through) failed: \(error)")
        }
        return Steps(steps: steps)
    }

    /// The state at `revision` and the snapshot revision it was replayed from.
    private func rebuild(at revision: UInt64) async throws(DevtoolsError) -> (state: App.State, snapshot: UInt64) {
        let latest = journal.lastRevision
        guard revision <= latest else { throw .revisionAhead(revision, latest: latest) }
        var (state, start) = try await base(for: revision)
        do {
            for try await entry in JournalReplay(journal: journal, after: start, through: revision) {
                try RecoveredState<App>.apply(entry, to: &state)
            }
        } catch let error as JournalError {
            throw .notRebuildable(revision, reason: "\(error)")
        } catch {
            throw .failed("replaying up to revision \(revision) failed: \(error)")
        }
        return (state, start)
    }

    /// The state to replay from for `revision`, and its revision.
    private func base(for revision: UInt64) async throws(DevtoolsError) -> (App.State, UInt64) {
        do {
            if let snapshot = try await journal.snapshot(atOrBefore: revision) {
                return (try RecoveredState<App>.decode(snapshot), snapshot.revision)
            }
            let oldest = try await journal.oldestRevision()
            guard revision == 0 || oldest == 1 else {
                let snapshots = try await journal.snapshotRevisions()
                throw DevtoolsError.notRebuildable(
                    revision, reason: "no snapshot at or below it (kept: \(snapshots)) and the journal starts at revision \(oldest.map(String.init) ?? "none")")
            }
            return (App.initialState, 0)
        } catch let error as DevtoolsError {
            throw error
        } catch {
            throw .failed("reading the journal for revision \(revision) failed: \(error)")
        }
    }

    private func encode(_ state: App.State) throws(DevtoolsError) -> JSONValue {
        do {
            return try JSONValueEncoder().encode(state)
        } catch {
            throw .failed("the rebuilt state does not encode to JSON: \(error)")
        }
    }
}
