import NIOCore
import NIOHTTP1
import StateSyncCore
import StateSyncProtocol
import Synchronization
import WebSocket

/// The HTTP API beside `/sync` (docs/PROTOCOL.md, "HTTP API"): dispatch,
/// state and watch for `main`, and under `/api/stores/NAME/`. Each request is
/// an unannounced engine session under the WebSocket's limits.
struct HTTPAPIRoutes<App: StateSyncApp>: Sendable {
    /// `main`'s engine, which the routes without a store use.
    let engine: SyncEngine<App>
    let stores: StoreDirectory<App>
    let access: HTTPAPIAccess
    let streams: EventStreams
    /// Makes the next session id (`h-1`, `h-2`, …).
    let nextSessionID: @Sendable () -> String

    /// The three routes for `main`, and the same for any store.
    var routes: [HTTPRoute] {
        ["/api", "/api/stores/{store}"].flatMap { prefix in
            [
                HTTPRoute(path: "\(prefix)/dispatch", methods: [.POST], requestHandler: { request in await dispatch(request) }),
                HTTPRoute(path: "\(prefix)/state", methods: [.GET, .HEAD], requestHandler: { request in await state(request) }),
                HTTPRoute(path: "\(prefix)/watch", methods: [.GET], streamHandler: { request, stream in Task { await watch(request, stream) } }),
            ]
        }
    }

    /// The store a request names in its path (`main` for the routes without
    /// one), validated.
    private func storeName(of request: HTTPRouteRequest) throws(HTTPAPIError) -> StoreName {
        guard let name = request.pathParameters["store"] else { return .main }
        return try HTTPAPIError.storeName(name)
    }

    /// Runs `body` with the engine of the store `request` names, holding a
    /// place in it (opened when it is not open) until `body` returns.
    private func withStore<T>(
        _ store: StoreName, of request: HTTPRouteRequest, role: Role, _ body: (SyncEngine<App>) async throws(HTTPAPIError) -> T
    ) async throws(HTTPAPIError) -> T {
        if store.isMain { return try await body(engine) }
        let engine: SyncEngine<App>
        do {
            engine = try await stores.acquire(store, role: role, from: request.remoteAddress.map(ClientAddressKey.init))
        } catch {
            throw HTTPAPIError(error)
        }
        defer { stores.release(store) }
        return try await body(engine)
    }

    /// `POST /api/dispatch`: `200 {"rev":N}` once durable, or the rejection.
    func dispatch(_ request: HTTPRouteRequest) async -> HTTPRouteResponse {
        do throws(HTTPAPIError) {
            let store = try storeName(of: request)
            let role = try await access.role(of: request, in: store)
            guard role.mayDispatch else {
                throw HTTPAPIError(rejection: "forbidden", message: "role \(role.rawValue) may not dispatch actions")
            }
            var limits = JSONParser.Limits()
            limits.maxInputBytes = access.session.maxMessageBytes
            limits.maxDepth = access.session.maxNestingDepth
            let sessionID = nextSessionID()
            let dispatch = try HTTPDispatchRequest(
                body: request.body.readableBytesView, headers: request.head.headers, limits: limits,
                identifierLimits: access.session.identifierLimits, freshID: { "\(sessionID)-a" })
            let action: JSONObject
            switch access.schemas.upcast(dispatch.action, writtenFor: try access.declaredSchema(of: request)) {
            case .success(let upcast): action = upcast
            case .failure(let rejection): throw HTTPAPIError(rejection: rejection.code, message: rejection.message)
            }
            if let refusal = access.session.actionPermissions.refusal(of: action, by: role) {
                throw HTTPAPIError(rejection: "forbidden", message: refusal)
            }
            let answer = try await withStore(store, of: request, role: role) { engine in
                await OneShotSession<App>.ask(
                    .dispatch(id: dispatch.id, action: action), answerID: dispatch.id,
                    as: SessionInfo(id: sessionID, name: dispatch.name), clientID: dispatch.clientID, role: role, engine: engine)
            }
            switch answer {
            case .ack(_, let rev)?:
                return Self.json(.ok, ["rev": .integer(Int64(rev))])
            case let .reject(_, code, message)?:
                throw HTTPAPIError(rejection: code.rawValue, message: message)
            default:
                throw HTTPAPIError.stopping
            }
        } catch {
            return error.response
        }
    }

    /// `GET /api/state?path=P`: `{"rev":N,"value":…}` with `ETag: "N"`;
    /// `304` when `If-None-Match` names the current revision.
    func state(_ request: HTTPRouteRequest) async -> HTTPRouteResponse {
        do throws(HTTPAPIError) {
            let store = try storeName(of: request)
            let role = try await access.role(of: request, in: store)
            let path = try access.readablePath(try Self.pathTexts(of: request).first ?? "", for: role)
            return try await withStore(store, of: request, role: role) { engine throws(HTTPAPIError) in
                let current = "\"\(engine.revision)\""
                if request.head.headers["If-None-Match"].contains(where: { $0 == current || $0 == "*" }) {
                    return HTTPRouteResponse(status: .notModified, headers: ["ETag": current])
                }
                let answer = await OneShotSession<App>.ask(
                    .get(id: "get", path: path), answerID: "get", as: SessionInfo(id: nextSessionID(), name: "http"),
                    clientID: nil, role: role, engine: engine)
                guard case let .value(_, rev, value)? = answer else { throw HTTPAPIError.stopping }
                var response = Self.json(.ok, ["rev": .integer(Int64(rev)), "value": value])
                response.headers.add(name: "ETag", value: "\"\(rev)\"")
                return response
            }
        } catch {
            return error.response
        }
    }

    /// `GET /api/watch?path=P&path=Q`: Server-Sent Events, one subscription
    /// per path (see ``EventStreamSession``).
    func watch(_ request: HTTPRouteRequest, _ stream: HTTPResponseStream) async {
        do throws(HTTPAPIError) {
            let store = try storeName(of: request)
            let (role, expires) = try await access.grant(of: request, in: store)
            var texts = try Self.pathTexts(of: request)
            if texts.isEmpty { texts = [""] }
            guard texts.count <= access.session.maxSubscriptions else {
                throw HTTPAPIError(.tooManySubscriptions(limit: access.session.maxSubscriptions, id: nil))
            }
            var paths: [(text: String, pointer: JSONPointer)] = []
            for text in texts { paths.append((text, try access.readablePath(text, for: role))) }
            let since = (request.head.headers.first(name: "Last-Event-ID") ?? request.queryValues("lastEventId").first)
                .flatMap { UInt64($0) }
            let start: @Sendable (SyncEngine<App>, @escaping @Sendable () -> Void) -> Void = { [access, streams, nextSessionID, paths] engine, ended in
                EventStreamSession<App>.start(
                    stream, paths: paths, since: since, role: role, sessionID: nextSessionID(), engine: engine,
                    heartbeat: access.session.eventStreamHeartbeat, until: expires, streams: streams, ended: ended)
            }
            guard !store.isMain else {
                start(engine) {}
                return
            }
            stores.acquire(store, role: role, id: nil, from: request.remoteAddress.map(ClientAddressKey.init)) { [stores] result in
                stream.eventLoop.execute {
                    switch result {
                    case .success(let engine): start(engine) { stores.release(store) }
                    case .failure(let error): Self.refuse(stream, HTTPAPIError(error))
                    }
                }
            }
        } catch {
            Self.refuse(stream, error)
        }
    }

    /// The request's `path` parameters, decoded.
    ///
    /// - Throws: `400 invalid_path` for one not percent-encoded UTF-8 (dropping it would read the whole state).
    private static func pathTexts(of request: HTTPRouteRequest) throws(HTTPAPIError) -> [String] {
        guard !request.hasUndecodableQueryValue("path") else {
            throw HTTPAPIError(status: .badRequest, code: "invalid_path", message: "a path must be percent-encoded UTF-8")
        }
        return request.queryValues("path")
    }

    /// Answers a watch with `error` instead of events.
    private static func refuse(_ stream: HTTPResponseStream, _ error: HTTPAPIError) {
        let response = error.response
        stream.start(status: response.status, headers: response.headers)
        stream.write(response.body)
        stream.finish()
    }

    private static func json(_ status: HTTPResponseStatus, _ object: JSONObject) -> HTTPRouteResponse {
        HTTPRouteResponse(
            status: status, headers: ["Content-Type": "application/json"],
            body: JSONSerializer().string(for: .object(object)) + "\n")
    }
}
