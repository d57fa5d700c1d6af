import Foundation
import StateSyncCore

/// What an ``ObservableMirror`` holds, as a plain value without locks or observers; ``publish()`` says whom to
/// tell. The state lives once, in the queue; while actions are pending, what observers see is kept apart
/// (``frozen``) until the next publish, so they never see half a rebase.
struct MirrorModel<App: StateSyncApp>: Sendable {
    /// Which slices a publish changed.
    enum Changed: Equatable {
        /// Only these slices (by index in the decoder's slices); empty: nothing.
        case slices(Set<Int>)
        /// Anything may have changed: the whole state was decoded.
        case everything
    }

    let decoder: SliceDecoder<App.State>
    let predicts: Bool
    private(set) var queue: OptimisticQueue<App>
    /// What observers were shown, while it differs from ``OptimisticQueue/predicted``.
    private var frozen: App.State?
    /// The slices the confirmed state changed in since the last publish.
    private var touched = Changed.slices([])
    /// The pending count observers were shown.
    private(set) var shownPendingCount = 0
    /// The decoding failure of the latest confirmed change, if any.
    private(set) var decodingError: StateSyncClientError?

    /// A model at `state` of revision `rev`.
    init(queue: OptimisticQueue<App>, decoder: SliceDecoder<App.State>, predicts: Bool) {
        self.queue = queue
        self.decoder = decoder
        self.predicts = predicts
        shownPendingCount = queue.pending.count
    }

    /// What observers see now.
    var shown: App.State { frozen ?? queue.predicted }

    /// The pending actions changed or are about to be reduced again:
    /// keeps what is shown until the next publish.
    private mutating func freeze() {
        if frozen == nil { frozen = queue.predicted }
    }

    /// Predicts action `id` (the client dispatched it).
    mutating func enqueue(id: String, action: App.Action, session: SessionInfo) {
        freeze()
        queue.session = session
        queue.enqueue(id: id, action: action, at: Date())
    }

    /// The server's state is now `document` at `rev`, changed by `changes`
    /// (absolute paths; one at the root for a snapshot): decodes only the
    /// slices they touch.
    mutating func confirm(document: JSONValue, rev: UInt64, changes: [JSONPatchOperation], session: SessionInfo) {
        if !queue.pending.isEmpty { freeze() }
        queue.session = session
        let decoder = decoder
        do {
            var changed: Set<Int>?
            try queue.confirm(rev: rev) { state in changed = try decoder.apply(changes, document: document, to: &state) }
            decodingError = nil
            touched = switch (touched, changed) {
            case (.slices(let before), let now?): .slices(before.union(now))
            default: .everything
            }
        } catch {
            touched = .everything   // the slices decoded before the failure did change
            decodingError = .decodingFailed(path: "/", type: "\(App.State.self)", reason: "\(error)")
        }
    }

    /// Leaves `ids` out of the prediction until answered.
    mutating func doubt(ids: Set<String>) {
        if !queue.pending.isEmpty { freeze() }
        queue.doubt(ids: ids)
    }

    /// Action `id` was answered.
    mutating func settle(id: String) {
        if !queue.pending.isEmpty { freeze() }
        queue.settle(id: id)
    }

    /// Shows the current prediction: returns the slices that differ from
    /// what was shown, and whether the pending count did.
    mutating func publish() -> (changed: Changed, pendingCountChanged: Bool) {
        var changed = touched
        if let frozen {
            let predicted = queue.predicted
            changed = .slices(Set(decoder.slices.indices.filter { !decoder.slices[$0].isEqual(frozen, predicted) }))
            // A member no slice lists changes only the readers of the whole state.
            if changed == .slices([]), frozen != predicted { changed = .everything }
        }
        frozen = nil
        touched = .slices([])
        let pendingCount = queue.pending.count
        defer { shownPendingCount = pendingCount }
        return (changed, pendingCount != shownPendingCount)
    }
}
