import Foundation
import NIOCore
import NIOHTTP1
import StateSyncCore
import StateSyncProtocol
import WebSocket

/// The WebSocket's access rules applied to an HTTP API request: the bearer
/// token's role in the store, read restrictions on every path, and the
/// message rate per client address.
struct HTTPAPIAccess: Sendable {
    let authentication: SessionAuthentication
    let session: SessionConfiguration
    let rateLimiter: HTTPRateLimiter
    let clock: @Sendable () -> ContinuousClock.Instant
    /// The app schema versions callers may speak (``schemaHeader``).
    let schemas: ClientSchemas

    /// The header naming the app schema version a caller speaks, as `hello`'s `schemaVersion` does.
    static let schemaHeader = "StateSync-Schema-Version"

    /// Rules from the server's configuration.
    init(
        authentication: SessionAuthentication, session: SessionConfiguration, schemas: ClientSchemas,
        clock: @escaping @Sendable () -> ContinuousClock.Instant
    ) {
        self.authentication = authentication
        self.session = session
        self.schemas = schemas
        self.rateLimiter = HTTPRateLimiter(ratePerSecond: session.messagesPerSecond, burst: session.burst)
        self.clock = clock
    }

    /// The app schema version `request` declares in ``schemaHeader``, or `nil`.
    ///
    /// - Throws: ``HTTPAPIError``: `400 bad_request`, or as for a `hello`
    ///   `400 upgrade_required` / `503 schema_too_new`.
    func declaredSchema(of request: HTTPRouteRequest) throws(HTTPAPIError) -> Int? {
        guard let text = request.head.headers.first(name: Self.schemaHeader) else { return nil }
        guard let version = Int(text.trimmingCharacters(in: .whitespaces)), ProtocolVersion.schemaVersions.contains(version) else {
            throw HTTPAPIError(
                status: .badRequest, code: ErrorCode.badRequest.rawValue,
                message: "header \(Self.schemaHeader) must be \(ProtocolVersion.schemaVersionKind), not \"\(text.prefix(60))\"")
        }
        if let refusal = schemas.refusal(ofHelloDeclaring: version) { throw HTTPAPIError(refusal) }
        return version
    }

    /// The caller's role in `store`, after its rate and schema were checked.
    ///
    /// - Throws: ``HTTPAPIError``: `429`, `401`, `403`, and those of ``declaredSchema(of:)``.
    func role(of request: HTTPRouteRequest, in store: StoreName) async throws(HTTPAPIError) -> Role {
        try await grant(of: request, in: store).role
    }

    /// The caller's role in `store` and when its token expires (`nil`: it
    /// does not), after its rate was checked; see ``role(of:in:)``.
    func grant(of request: HTTPRouteRequest, in store: StoreName) async throws(HTTPAPIError) -> (role: Role, expires: Date?) {
        let address = request.remoteAddress?.ipAddress ?? "unknown"
        guard rateLimiter.admit(address, now: clock()) else {
            throw HTTPAPIError(.rateLimited(messagesPerSecond: session.messagesPerSecond, id: nil))
        }
        _ = try declaredSchema(of: request)
        switch await authentication.access(for: request.head.headers.bearerToken) {
        case .success(let access):
            guard let role = access.role(in: store) else { throw HTTPAPIError(.storeNotGranted(store, id: nil)) }
            return (role, access.expires)
        case .failure(let error):
            throw HTTPAPIError(error)
        }
    }

    /// `path` parsed, when `role` may read it.
    ///
    /// - Throws: ``HTTPAPIError``: `400 invalid_path`, `403 forbidden`.
    func readablePath(_ text: String, for role: Role) throws(HTTPAPIError) -> JSONPointer {
        let path: JSONPointer
        do {
            path = try JSONPointer(parsing: text, limits: session.pathLimits)
        } catch {
            throw HTTPAPIError(.invalidPath(error, id: nil))
        }
        guard session.readPermissions.allows(role, toRead: path) else {
            throw HTTPAPIError(.forbidden(path: path, role: role, id: nil))
        }
        return path
    }
}
