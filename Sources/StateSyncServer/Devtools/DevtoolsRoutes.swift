import StateSyncJournal
import Foundation
import NIOCore
import NIOHTTP1
import StateSyncCore
import StateSyncProtocol
import WebSocket

/// The read-only JSON endpoints behind the devtools page (docs/PROTOCOL.md,
/// "Devtools"), for the store in the `store` query (default `main`). Access is
/// ``DevtoolsAccess``'s decision; load is bounded by ``DevtoolsRequestLimit``.
struct DevtoolsRoutes<App: StateSyncApp>: Sendable {
    /// The most entries one journal request returns: a page of the log, small
    /// enough that replaying it for its patches stays in the milliseconds.
    static var maxEntries: UInt64 { 500 }

    /// The most stores one listing returns.
    static var maxStoresListed: Int { 1_000 }

    /// `main`'s engine.
    let engine: SyncEngine<App>
    let stores: StoreDirectory<App>
    let access: DevtoolsAccess
    let limit: DevtoolsRequestLimit

    /// `/devtools/api/journal`, `/devtools/api/state`, `/devtools/api/sessions`,
    /// `/devtools/api/rejections` (each `?store=NAME`) and `/devtools/api/stores`.
    var routes: [HTTPRoute] {
        [
            route("/devtools/api/journal") { query, engine in try await journal(query, engine) },
            route("/devtools/api/state") { query, engine in try await state(query, engine) },
            route("/devtools/api/sessions") { _, engine in
                ["sessions": .array(await engine.sessions().map(DevtoolsJSON.session))]
            },
            route("/devtools/api/rejections") { query, engine in
                let after = try revision(query, "after") ?? 0
                return ["rejections": .array(engine.rejections(after: after).map(DevtoolsJSON.rejection))]
            },
            HTTPRoute(path: "/devtools/api/stores", asyncHandler: { head, _ in
                do {
                    return Self.json(.ok, try await storeList(Self.query(head.uri), head))
                } catch {
                    return Self.error(error)
                }
            }),
        ]
    }

    private func journal(_ query: [String: String], _ engine: SyncEngine<App>) async throws(DevtoolsError) -> JSONValue {
        let travel = TimeTravel<App>(journal: engine.journal)
        let latest = travel.journal.lastRevision
        let from = try revision(query, "from") ?? (latest >= Self.maxEntries ? latest - Self.maxEntries + 1 : 1)
        let through = min(try revision(query, "through") ?? latest, from.addingReportingOverflow(Self.maxEntries - 1).partialValue)
        let result = try await travel.steps(from: max(from, 1), through: through)
        let oldest: UInt64?
        let snapshots: [UInt64]
        do {
            oldest = try await travel.journal.oldestRevision()
            snapshots = try await travel.journal.snapshotRevisions()
        } catch {
            throw .failed("reading the journal's extent failed: \(error)")
        }
        var body: JSONObject = [
            "epoch": .string(engine.epoch),
            "latest": .integer(Int64(clamping: latest)),
            "oldest": oldest.map { .integer(Int64(clamping: $0)) } ?? .null,
            "snapshots": .array(snapshots.map { .integer(Int64(clamping: $0)) }),
            "entries": .array(result.steps.map(DevtoolsJSON.step)),
        ]
        if let reason = result.patchesUnavailable { body["patchesUnavailable"] = .string(reason) }
        return .object(body)
    }

    private func state(_ query: [String: String], _ engine: SyncEngine<App>) async throws(DevtoolsError) -> JSONValue {
        let travel = TimeTravel<App>(journal: engine.journal)
        let latest = travel.journal.lastRevision
        let rebuilt = try await travel.state(at: try revision(query, "rev") ?? latest)
        return [
            "rev": .integer(Int64(clamping: rebuilt.revision)),
            "snapshot": .integer(Int64(clamping: rebuilt.snapshotRevision)),
            "latest": .integer(Int64(clamping: latest)),
            "state": rebuilt.state,
        ]
    }

    /// `{"stores":[{"name","open","rev","sessions","bytes"}…],"next":NAME}`:
    /// the stores after `after` in name order that the caller may read.
    private func storeList(_ query: [String: String], _ head: HTTPRequestHead) async throws(DevtoolsError) -> JSONValue {
        let caller = try await access.access(of: head)
        var after: StoreName?
        if let text = query["after"] { after = try Self.storeName(text) }
        let page = await stores.summaries(after: after, limit: Self.maxStoresListed + 1)
        let shown = page.prefix(Self.maxStoresListed)
        var body: JSONObject = ["stores": .array(shown.filter { store in caller.role(in: store.name).map { access.mayRead($0, store.name) == nil } ?? false }.map(\.json))]
        if page.count > Self.maxStoresListed, let last = shown.last { body["next"] = .string(last.name.rawValue) }
        return .object(body)
    }

    /// A read-only route answering JSON from `body` with the engine of the
    /// request's store, held open (a session's place in it) while it runs.
    private func route(
        _ path: String, _ body: @escaping @Sendable ([String: String], SyncEngine<App>) async throws -> JSONValue
    ) -> HTTPRoute {
        HTTPRoute(path: path, asyncHandler: { head, _ in
            do {
                let query = Self.query(head.uri)
                let store = try Self.storeName(query["store"] ?? StoreName.main.rawValue)
                let role = try await access.reader(of: store, head)
                guard limit.acquire() else { return Self.busy(limit.maximum) }
                defer { limit.release() }
                // A rebuild does not suspend once started: yield first so requests already
                // received take their places (or are refused), and a burst costs `maximum`
                // rebuilds at once.
                await Task.yield()
                return try await withEngine(of: store, role: role) { engine in Self.json(.ok, try await body(query, engine)) }
            } catch {
                return Self.error(error)
            }
        })
    }

    /// Runs `body` with the engine of `store`, which must exist: `main`'s,
    /// or another's acquired for the time of the request.
    private func withEngine(
        of store: StoreName, role: Role, _ body: (SyncEngine<App>) async throws -> HTTPRouteResponse
    ) async throws -> HTTPRouteResponse {
        guard !store.isMain else { return try await body(engine) }
        guard stores.holds(store) else { throw DevtoolsError.noStore(store.rawValue) }
        let engine: SyncEngine<App>
        do {
            engine = try await stores.acquire(store, role: role, from: nil)
        } catch {
            throw DevtoolsError.storeUnavailable(error.message)
        }
        defer { stores.release(store) }
        return try await body(engine)
    }

    private static func storeName(_ text: String) throws(DevtoolsError) -> StoreName {
        do {
            return try StoreName(text)
        } catch {
            throw .invalidStore(error.message)
        }
    }

    /// The JSON error answer of `error`.
    private static func error(_ error: any Error) -> HTTPRouteResponse {
        let failure = error as? DevtoolsError ?? .failed("\(error)")
        return Self.error(HTTPResponseStatus(statusCode: failure.status), code: failure.code, failure.description)
    }

    /// `503`: every place is taken; the page retries on its next refresh.
    private static func busy(_ maximum: Int) -> HTTPRouteResponse {
        var response = error(.serviceUnavailable, code: "unavailable",
            "\(maximum) devtools requests are being answered, the most the server answers at once; retry shortly")
        response.headers.add(name: "Retry-After", value: "1")
        return response
    }

    /// The query string's parameters (the last of repeated names wins).
    private static func query(_ uri: String) -> [String: String] {
        let items = URLComponents(string: uri)?.queryItems ?? []
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
    }

    private func revision(_ query: [String: String], _ name: String) throws(DevtoolsError) -> UInt64? {
        guard let text = query[name] else { return nil }
        guard let value = UInt64(text), value <= UInt64(Int64.max) else {
            throw .badQuery("\(name)=\(text) is not a revision (an integer from 0 to 2^63-1)")
        }
        return value
    }

    private static func json(_ status: HTTPResponseStatus, _ value: JSONValue) -> HTTPRouteResponse {
        var body = ByteBuffer()
        body.writeBytes(JSONSerializer().serialize(value))
        body.writeString("\n")
        return HTTPRouteResponse(
            status: status, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"], body: body)
    }

    private static func error(_ status: HTTPResponseStatus, code: String, _ message: String) -> HTTPRouteResponse {
        json(status, ["error": ["code": .string(code), "message": .string(message)]])
    }
}
