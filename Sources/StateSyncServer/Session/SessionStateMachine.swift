import StateSyncCore
public import StateSyncProtocol

/// The protocol logic of one connection as a plain value with no I/O: it reads
/// each message and returns what to do (``SyncSession`` does it), enforcing
/// `hello` first, authentication, roles and limits.
///
/// ```swift
/// var machine = SessionStateMachine(configuration: .init(), authentication: .open, now: .now)
/// switch machine.received(text: Array(#"{"type":"hello"}"#.utf8), now: .now) {
/// case .join(let hello): …   // ask the engine for the welcome
/// default: …
/// }
/// ```
public struct SessionStateMachine: Sendable {
    /// What the session does after a message.
    public enum Action: Sendable, Equatable {
        /// A valid `hello`: join the engines with this access and send `welcome`.
        case join(clientID: String?, name: String?, access: StoreAccess)
        /// Verify `token` as a JWT (``SessionAuthentication/jwt``), then
        /// hand the outcome to ``verified(_:)``; the session waits meanwhile.
        case verify(token: String, by: JWTAuthenticator)
        /// A valid request for the engine of `store`, with the session's `role`; a
        /// `subscribe … since` names the `epoch` it resumes in, if the client gave one.
        case request(SessionRequest, store: StoreName = .main, epoch: String? = nil, role: Role = .writer)
        /// An `auth` in force: the session now has `access`, answers
        /// `authorized` for `id`, and ends the subscriptions in `ended`
        /// (their store or their path is no longer granted).
        case reauthorize(id: String, access: StoreAccess, ended: [ScopedSubscription])
        /// Send this reply (about a message for `store`); the connection stays open.
        case reply(ServerMessage, store: StoreName = .main)
        /// Send this reply, then close with this WebSocket close code.
        case replyAndClose(ServerMessage, closeCode: UInt16)
        /// Nothing: the session is closed; the message is dropped.
        case ignore
    }

    private enum State: Sendable {
        case awaitingHello
        /// `hello`'s token is being verified.
        case verifyingHello(clientID: String?, name: String?)
        case joined(StoreAccess)
        case closed
    }

    private let settings: SessionSettings
    private var configuration: SessionConfiguration { settings.configuration }
    private var authentication: SessionAuthentication { settings.authentication }
    private var schemas: ClientSchemas { settings.schemas }
    /// The app schema version `hello` declared, if any: its dispatches'
    /// unless one names another.
    private var declaredSchema: Int?
    private var decoder: MessageDecoder { settings.decoder }
    private var state = State.awaitingHello
    private var subscriptions: SmallDictionary<ScopedSubscription, JSONPointer> = [:]
    /// The `auth` whose token is being verified.
    private var pendingAuth: String?
    /// The stores this session used (`main` from `hello` on): bounded by
    /// ``SessionConfiguration/maxStoresPerSession``.
    private var stores = Self.onlyMain
    /// The stores of a session that used only `main`: one set shared by
    /// every session until it uses another (copy on write).
    private static let onlyMain: Set<StoreName> = [.main]
    private var bucket: TokenBucket
    private var byteBucket: TokenBucket
    private var refusedInARow = 0

    /// A session waiting for `hello`, accepting clients of `schemas`.
    public init(
        configuration: SessionConfiguration, authentication: SessionAuthentication, schemas: ClientSchemas = .unversioned,
        now: ContinuousClock.Instant
    ) {
        self.init(settings: SessionSettings(configuration: configuration, authentication: authentication, schemas: schemas), now: now)
    }

    /// A session waiting for `hello`, with the settings its server's sessions share.
    init(settings: SessionSettings, now: ContinuousClock.Instant) {
        self.settings = settings
        self.bucket = TokenBucket(full: settings.messageRate, now: now)
        self.byteBucket = TokenBucket(full: settings.byteRate, now: now)
    }

    /// What the session's token grants, or `nil` before `hello` (or once closed).
    public var access: StoreAccess? {
        if case .joined(let access) = state { return access }
        return nil
    }

    /// The ids of the subscriptions open on this connection, in `store`.
    public func openSubscriptions(in store: StoreName = .main) -> Set<String> {
        Set(subscriptions.keys.filter { $0.store == store }.map(\.id))
    }

    /// The stores this session used, `main` included.
    public var storesUsed: Set<StoreName> { stores }

    /// Handles one text message (its UTF-8 bytes).
    public mutating func received(text bytes: some Collection<UInt8>, now: ContinuousClock.Instant) -> Action {
        switch state {
        case .closed:
            return .ignore
        case .awaitingHello:
            return hello(bytes)
        case .verifyingHello:
            // The session waits for the verification and keeps later messages.
            return .ignore
        case .joined(let access):
            if let refusal = rateLimit(bytes, byteCount: bytes.count, now: now) { return refusal }
            let message: ClientMessage
            let store: StoreName
            let epoch: String?
            do {
                (message, store, epoch) = try decoder.decodeStoreScopedMessage(bytes)
            } catch {
                return fail(error, store: decoder.namedStore(bytes) ?? .main)
            }
            if case .auth(let id, let token) = message {
                if let error = configuration.identifierLimits.check(message) { return fail(error) }
                return authenticate(token, id: id, current: access)
            }
            guard let role = access.role(in: store) else {
                return fail(.storeNotGranted(store, id: message.id), store: store)
            }
            if !stores.contains(store) {
                guard stores.count < configuration.maxStoresPerSession else {
                    return fail(.storeLimit(
                        "too many stores on one connection: at most \(configuration.maxStoresPerSession)", id: message.id),
                        store: store)
                }
                stores.insert(store)
            }
            return joined(message, store: store, epoch: epoch, role: role)
        }
    }

    /// Handles one binary message of `byteCount` bytes: `unsupported_binary`
    /// (before `hello`: `hello_required`).
    public mutating func receivedBinary(byteCount: Int = 0, now: ContinuousClock.Instant) -> Action {
        switch state {
        case .closed:
            return .ignore
        case .awaitingHello:
            return fail(.helloRequired(received: "a binary message", id: nil))
        case .verifyingHello:
            return .ignore
        case .joined:
            if let refusal = rateLimit(nil as [UInt8]?, byteCount: byteCount, now: now) { return refusal }
            return fail(.unsupportedBinary)
        }
    }

    /// The connection ended: later messages are ignored.
    public mutating func closed() {
        state = .closed
    }

    private mutating func hello(_ bytes: some Collection<UInt8>) -> Action {
        let message: ClientMessage
        do {
            message = try decoder.decodeClientMessage(bytes)
        } catch {
            // Anything but a valid hello first is `hello_required`; a hello with a bad field says which.
            if error.code == .badRequest, decoder.namedType(bytes) == "hello" { return fail(.invalidHello(error)) }
            return fail(.helloRequired(received: "an invalid message (\(error.code))", id: error.id))
        }
        guard case let .hello(clientID, token, name, schemaVersion) = message else {
            return fail(.helloRequired(received: message.type, id: message.id))
        }
        if let error = configuration.identifierLimits.check(message) { return fail(error) }
        if let error = schemas.refusal(ofHelloDeclaring: schemaVersion) { return fail(error) }
        declaredSchema = schemaVersion
        switch authentication.decide(token) {
        case .refused(let error):
            return fail(error)
        case .granted(let access):
            state = .joined(access)
            return .join(clientID: clientID, name: name, access: access)
        case let .verify(token, jwt):
            state = .verifyingHello(clientID: clientID, name: name)
            return .verify(token: token, by: jwt)
        }
    }

    /// The outcome of the verification a ``Action/verify(token:by:)`` asked
    /// for: the join (or the refusal) of a `hello`, or the `authorized` (or
    /// the error) of an `auth`.
    public mutating func verified(_ outcome: Result<StoreAccess, ProtocolError>) -> Action {
        switch state {
        case let .verifyingHello(clientID, name):
            switch outcome {
            case .failure(let error):
                return fail(error)
            case .success(let access):
                state = .joined(access)
                return .join(clientID: clientID, name: name, access: access)
            }
        case .joined(let current):
            guard let id = pendingAuth else { return .ignore }
            pendingAuth = nil
            return reauthorize(outcome, id: id, current: current)
        case .awaitingHello, .closed:
            return .ignore
        }
    }

    /// An `auth` with `token`: in force at once for a token of the list,
    /// or verified first for a JWT.
    private mutating func authenticate(_ token: String, id: String, current: StoreAccess) -> Action {
        switch authentication.decide(token) {
        case .refused(let error):
            return reauthorize(.failure(error), id: id, current: current)
        case .granted(let access):
            return reauthorize(.success(access), id: id, current: current)
        case let .verify(token, jwt):
            pendingAuth = id
            return .verify(token: token, by: jwt)
        }
    }

    /// Puts `outcome`'s access in force for `auth` `id`, ending the
    /// subscriptions it no longer grants; a refused token leaves the
    /// session as it was (its current token stays in force until it expires).
    private mutating func reauthorize(_ outcome: Result<StoreAccess, ProtocolError>, id: String, current: StoreAccess) -> Action {
        switch outcome {
        case .failure(let error):
            // Not `fail`: a refused refresh does not close the connection.
            return .reply(.error(error.relating(to: id)))
        case .success(let access):
            state = .joined(access)
            let ended = subscriptions.filter { key, path in
                guard let role = access.role(in: key.store) else { return true }
                return !configuration.readPermissions.allows(role, toRead: path)
            }.map(\.key).sorted { ($0.store, $0.id) < ($1.store, $1.id) }
            for key in ended { subscriptions[key] = nil }
            stores = stores.filter { $0.isMain || access.role(in: $0) != nil }
            return .reauthorize(id: id, access: access, ended: ended)
        }
    }

    private mutating func joined(_ message: ClientMessage, store: StoreName, epoch: String?, role: Role) -> Action {
        if let error = configuration.identifierLimits.check(message) { return fail(error, store: store) }
        switch message {
        case .hello:
            return .reply(.error(id: nil, code: .badRequest, message: "this session already said hello"))
        case .auth:
            // Handled before the store's role is looked up.
            return .ignore
        case let .subscribe(id, path, since):
            guard configuration.readPermissions.allows(role, toRead: path) else {
                return fail(.forbidden(path: path, role: role, id: id), store: store)
            }
            let key = ScopedSubscription(store: store, id: id)
            if subscriptions[key] == nil, subscriptions.count >= configuration.maxSubscriptions {
                return fail(.tooManySubscriptions(limit: configuration.maxSubscriptions, id: id), store: store)
            }
            subscriptions[key] = path
            return .request(.subscribe(id: id, path: path, since: since), store: store, epoch: since == nil ? nil : epoch, role: role)
        case .unsubscribe(let id):
            subscriptions[ScopedSubscription(store: store, id: id)] = nil
            return .request(.unsubscribe(id: id), store: store, role: role)
        case let .get(id, path):
            guard configuration.readPermissions.allows(role, toRead: path) else {
                return fail(.forbidden(path: path, role: role, id: id), store: store)
            }
            return .request(.get(id: id, path: path), store: store, role: role)
        case let .dispatch(id, written, schemaVersion):
            guard role.mayDispatch else {
                return .reply(
                    .reject(id: id, code: .forbidden, message: "role \(role.rawValue) may not dispatch actions"), store: store)
            }
            let action: JSONObject
            switch schemas.upcast(written, writtenFor: schemaVersion ?? declaredSchema) {
            case .success(let upcast): action = upcast
            case .failure(let rejection): return .reply(.reject(id: id, code: RejectCode(rejection), message: rejection.message), store: store)
            }
            if let refusal = configuration.actionPermissions.refusal(of: action, by: role) {
                return .reply(.reject(id: id, code: .forbidden, message: refusal), store: store)
            }
            return .request(.dispatch(id: id, action: action), store: store, role: role)
        }
    }

    /// Takes a message token and `byteCount` byte tokens; when either is
    /// missing, the refusal to send (or the close when refusals persist).
    private mutating func rateLimit(
        _ bytes: (some Collection<UInt8>)?, byteCount: Int, now: ContinuousClock.Instant
    ) -> Action? {
        let error: (String?) -> ProtocolError
        if !bucket.take(at: settings.messageRate, now: now) {
            error = { [configuration] in .rateLimited(messagesPerSecond: configuration.messagesPerSecond, id: $0) }
        } else if !byteBucket.take(byteCount, at: settings.byteRate, now: now) {
            error = { [configuration] in .byteRateLimited(bytesPerSecond: configuration.bytesPerSecond, id: $0) }
        } else {
            refusedInARow = 0
            return nil
        }
        refusedInARow += 1
        let refused = bytes.flatMap(peek)
        if case .dispatch(let actionID, _, _) = refused {
            if refusedInARow < configuration.rateLimitedMessagesBeforeClose {
                return .reply(.reject(id: actionID, code: .rateLimited, message: error(actionID).message))
            }
        }
        return fail(error(refused?.id))
    }

    /// Refused messages larger than this are not decoded to find their id:
    /// refusing must cost less than handling (16 KiB: any dispatch a person makes).
    static let maxPeekedBytes = 16_384

    /// The refused message, to name its id in the refusal; a refused message
    /// that does not decode is refused for its rate, not reported for its form.
    private func peek(_ bytes: some Collection<UInt8>) -> ClientMessage? {
        guard bytes.count <= Self.maxPeekedBytes else { return nil }
        do {
            return try decoder.decodeClientMessage(bytes)
        } catch {
            return nil
        }
    }

    /// The reply for `error`, closing when its policy says so now, or, for
    /// rate limiting, once it has persisted.
    private mutating func fail(_ error: ProtocolError, store: StoreName = .main) -> Action {
        let policy = error.code.connectionPolicy
        if let code = policy.closeCode {
            state = .closed
            return .replyAndClose(.error(error), closeCode: code)
        }
        if let code = policy.closeCodeWhenPersisting, refusedInARow >= configuration.rateLimitedMessagesBeforeClose {
            state = .closed
            return .replyAndClose(.error(error), closeCode: code)
        }
        return .reply(.error(error), store: store)
    }
}

/// A subscription id within its store: ids are the client's per store.
public struct ScopedSubscription: Hashable, Sendable {
    /// The store the subscription is in.
    public let store: StoreName
    /// The client's id for it.
    public let id: String
}
