import StateSyncJournal
import Foundation
import NIOCore
import NIOHTTP1
import StateSyncCore
import StateSyncProtocol
import WebSocket

/// The read-only HTTP JSON endpoints behind the devtools page
/// (docs/PROTOCOL.md, "Devtools"): the journal by revision range with each
/// action's patch, the state at any revision, the sessions, and the recent
/// rejections. With authentication on, each request must carry
/// `Authorization: Bearer TOKEN` for an `admin` token (401 without a known
/// token, 403 for another role); with it off, they are open like the rest.
/// Either way the caller's role must be allowed to read every path
/// (``ReadPermissions/allowsEverything(_:)``): the devtools show the whole
/// state and history, so `--restrict-read` would mean nothing otherwise.
/// At most ``DevtoolsRequestLimit/maximum`` requests are answered at once,
/// server-wide (`503` beyond, see ``DevtoolsRequestLimit``).
struct DevtoolsRoutes<App: StateSyncApp>: Sendable {
    /// The most entries one journal request returns: a page of the log, small
    /// enough that replaying it for its patches stays in the milliseconds.
    static var maxEntries: UInt64 { 500 }

    let engine: SyncEngine<App>
    let travel: TimeTravel<App>
    let authentication: SessionAuthentication
    let readPermissions: ReadPermissions
    let limit: DevtoolsRequestLimit

    /// `/devtools/api/journal`, `/devtools/api/state`, `/devtools/api/sessions`, `/devtools/api/rejections`.
    var routes: [HTTPRoute] {
        [
            route("/devtools/api/journal") { query in try await journal(query) },
            route("/devtools/api/state") { query in try await state(query) },
            route("/devtools/api/sessions") { _ in
                ["sessions": .array(await engine.sessions().map(DevtoolsJSON.session))]
            },
            route("/devtools/api/rejections") { query in
                let after = try revision(query, "after") ?? 0
                return ["rejections": .array(engine.rejections(after: after).map(DevtoolsJSON.rejection))]
            },
        ]
    }

    private func journal(_ query: [String: String]) async throws(DevtoolsError) -> JSONValue {
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

    private func state(_ query: [String: String]) async throws(DevtoolsError) -> JSONValue {
        let latest = travel.journal.lastRevision
        let rebuilt = try await travel.state(at: try revision(query, "rev") ?? latest)
        return [
            "rev": .integer(Int64(clamping: rebuilt.revision)),
            "snapshot": .integer(Int64(clamping: rebuilt.snapshotRevision)),
            "latest": .integer(Int64(clamping: latest)),
            "state": rebuilt.state,
        ]
    }

    /// A read-only admin route answering JSON from `body`.
    private func route(
        _ path: String, _ body: @escaping @Sendable ([String: String]) async throws -> JSONValue
    ) -> HTTPRoute {
        HTTPRoute(path: path, asyncHandler: { [authentication, readPermissions, limit] head, _ in
            if let refusal = await Self.refusal(head, authentication, readPermissions) { return refusal }
            guard limit.acquire() else { return Self.busy(limit.maximum) }
            defer { limit.release() }
            // Each request runs in a task started when it arrived, and a
            // rebuild may not suspend until it is done: let the requests
            // already received take their places (or be refused) first, so
            // that a burst costs `maximum` rebuilds, not one after another each.
            await Task.yield()
            do {
                return Self.json(.ok, try await body(Self.query(head.uri)))
            } catch {
                let failure = error as? DevtoolsError ?? .failed("\(error)")
                return Self.error(HTTPResponseStatus(statusCode: failure.status), code: failure.code, failure.description)
            }
        })
    }

    /// 401/403 unless authentication is off or the bearer token is an
    /// admin's, and unless that role may read every path.
    private static func refusal(
        _ head: HTTPRequestHead, _ authentication: SessionAuthentication, _ readPermissions: ReadPermissions
    ) async -> HTTPRouteResponse? {
        guard authentication.isRequired else {
            // Open: the caller has the role of a hello without a token.
            guard case .success(let access) = await authentication.access(for: nil), let role = access.role(in: .main),
                  !readPermissions.allowsEverything(role)
            else { return nil }
            return error(.forbidden, code: "forbidden",
                "devtools show the whole state, and --restrict-read keeps parts of it from role \(role.rawValue)")
        }
        let token = head.headers.bearerToken
        switch await authentication.access(for: token).map({ $0.role(in: .main) }) {
        case .failure(let refusal):
            return error(.unauthorized, code: "unauthorized", token == nil
                ? "devtools need an admin token: send Authorization: Bearer TOKEN"
                : refusal.message)
        case .success(nil):
            return error(.forbidden, code: "forbidden", "devtools are for the admin role; this token grants no role in main")
        case .success(let role?) where !role.mayAdminister:
            return error(.forbidden, code: "forbidden", "devtools are for the admin role; this token's role is \(role.rawValue)")
        case .success(let role?) where !readPermissions.allowsEverything(role):
            return error(.forbidden, code: "forbidden",
                "devtools show the whole state, and --restrict-read keeps parts of it from role \(role.rawValue)")
        case .success:
            return nil
        }
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
