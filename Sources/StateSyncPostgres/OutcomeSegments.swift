import StateSyncCore
import StateSyncServer

/// A group's outcome instructions, in as few ordered segments as keep each
/// batch's meaning (``JournalBatch``: a batch's forgotten clientIds lose
/// their outcomes *before* its own are recorded, its trims apply *after*).
///
/// A segment is forgets, then inserts, then trims. Consecutive batches share
/// a segment unless a batch forgets after inserts or trims, or inserts after
/// trims: then a new segment starts. So a group of batches without forgets
/// or trims (the usual case) is one segment, inserted by one statement per
/// kind, however many batches it holds.
///
/// The rows of every segment are flat arrays in order, with each segment's
/// end index (1-based, inclusive, as PostgreSQL's array slices take it) per
/// kind: the shape `statesync_write_group` reads.
struct OutcomeSegments {
    /// An accepted pair and its revision.
    struct Accepted: Equatable {
        var client: String
        var action: String
        var revision: Int64
    }

    /// A clientId trimmed to its `keep` newest outcomes.
    struct Trim: Equatable {
        var client: String
        var keep: Int32
    }

    /// clientIds whose outcomes are all dropped.
    private(set) var forgotten: [String] = []
    /// Accepted pairs.
    private(set) var accepted: [Accepted] = []
    /// Rejected pairs and their answer.
    private(set) var rejected: [JournalRejection] = []
    /// Trims.
    private(set) var trims: [Trim] = []
    /// Per segment, the end of its rows in each array above.
    private(set) var forgottenEnds: [Int32] = []
    private(set) var acceptedEnds: [Int32] = []
    private(set) var rejectedEnds: [Int32] = []
    private(set) var trimEnds: [Int32] = []

    /// The segments of `batches`, in order.
    init(_ batches: [JournalBatch]) {
        var startOfSegment = (accepted: 0, rejected: 0, trims: 0)
        for batch in batches {
            let inserts = batch.entries.compactMap { entry -> Accepted? in
                guard let client = entry.meta.clientID, let action = entry.actionID else { return nil }
                return Accepted(client: client, action: action, revision: Int64(entry.revision))
            }
            let segmentInserted = accepted.count > startOfSegment.accepted || rejected.count > startOfSegment.rejected
            let segmentTrimmed = trims.count > startOfSegment.trims
            let batchInserts = !inserts.isEmpty || !batch.rejections.isEmpty
            if forgottenEnds.isEmpty
                || (!batch.forgottenClients.isEmpty && (segmentInserted || segmentTrimmed))
                || (batchInserts && segmentTrimmed) {
                startOfSegment = (accepted.count, rejected.count, trims.count)
                forgottenEnds.append(0)
                acceptedEnds.append(0)
                rejectedEnds.append(0)
                trimEnds.append(0)
            }
            forgotten += batch.forgottenClients
            accepted += inserts
            rejected += batch.rejections
            trims += batch.outcomeTrims.sorted { $0.key < $1.key }.map { Trim(client: $0.key, keep: Int32(clamping: $0.value)) }
            let last = forgottenEnds.count - 1
            forgottenEnds[last] = Int32(forgotten.count)
            acceptedEnds[last] = Int32(accepted.count)
            rejectedEnds[last] = Int32(rejected.count)
            trimEnds[last] = Int32(trims.count)
        }
    }

    /// How many segments there are.
    var count: Int { forgottenEnds.count }
}
