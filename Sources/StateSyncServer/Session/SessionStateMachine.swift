import StateSyncCore
public import StateSyncProtocol

/// The protocol logic of one connection as a plain value: it reads each
/// received message and returns what to do, with no I/O. ``SyncSession``
/// carries the decisions out.
///
/// It enforces: `hello` first, token authentication, roles (a reader's
/// `dispatch` is rejected `forbidden`), the subscription limit, the message
/// rate, and turns every decoding failure into the protocol's `error` with the
/// related id. What each error does to the connection comes from
/// ``ErrorCode/connectionPolicy``, not from this type.
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
        /// A valid `hello`: join the engine with this role and send `welcome`.
        case join(clientID: String?, name: String?, role: Role)
        /// A valid request within the limits, for the engine of `store`;
        /// a `subscribe … since` names the `epoch` it resumes in, when the
        /// client gave one (the session drops `since` when it is not the
        /// store's: that history is not the one the client saw).
        case request(SessionRequest, store: StoreName = .main, epoch: String? = nil)
        /// Send this reply (about a message for `store`); the connection stays open.
        case reply(ServerMessage, store: StoreName = .main)
        /// Send this reply, then close with this WebSocket close code.
        case replyAndClose(ServerMessage, closeCode: UInt16)
        /// Nothing: the session is closed; the message is dropped.
        case ignore
    }

    private enum State: Sendable {
        case awaitingHello
        case joined(Role)
        case closed
    }

    private let configuration: SessionConfiguration
    private let authentication: SessionAuthentication
    private let decoder: MessageDecoder
    private var state = State.awaitingHello
    private var subscriptions: Set<ScopedID> = []
    /// The stores this session used (`main` from `hello` on): bounded by
    /// ``SessionConfiguration/maxStoresPerSession``.
    private var stores: Set<StoreName> = [.main]
    private var bucket: TokenBucket
    private var byteBucket: TokenBucket
    private var refusedInARow = 0

    /// A session waiting for `hello`.
    public init(configuration: SessionConfiguration, authentication: SessionAuthentication, now: ContinuousClock.Instant) {
        self.configuration = configuration
        self.authentication = authentication
        var limits = JSONParser.Limits()
        limits.maxInputBytes = configuration.maxMessageBytes
        limits.maxDepth = configuration.maxNestingDepth
        self.decoder = MessageDecoder(limits: limits, pathLimits: configuration.pathLimits)
        self.bucket = TokenBucket(ratePerSecond: configuration.messagesPerSecond, capacity: configuration.burst, now: now)
        self.byteBucket = TokenBucket(ratePerSecond: configuration.bytesPerSecond, capacity: configuration.byteBurst, now: now)
    }

    /// The role granted by `hello`, or `nil` before it (or once closed).
    public var role: Role? {
        if case .joined(let role) = state { return role }
        return nil
    }

    /// The ids of the subscriptions open on this connection, in `store`.
    public func openSubscriptions(in store: StoreName = .main) -> Set<String> {
        Set(subscriptions.filter { $0.store == store }.map(\.id))
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
        case .joined(let role):
            if let refusal = rateLimit(bytes, byteCount: bytes.count, now: now) { return refusal }
            let message: ClientMessage
            let store: StoreName
            let epoch: String?
            do {
                (message, store, epoch) = try decoder.decodeStoreScopedMessage(bytes)
            } catch {
                return fail(error, store: decoder.namedStore(bytes) ?? .main)
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
            // Anything but a valid hello first is `hello_required`.
            return fail(.helloRequired(received: "an invalid message (\(error.code))", id: error.id))
        }
        guard case let .hello(clientID, token, name) = message else {
            return fail(.helloRequired(received: message.type, id: message.id))
        }
        if let error = configuration.identifierLimits.check(message) { return fail(error) }
        switch authentication.role(for: token) {
        case .failure(let error):
            return fail(error)
        case .success(let role):
            state = .joined(role)
            return .join(clientID: clientID, name: name, role: role)
        }
    }

    private mutating func joined(_ message: ClientMessage, store: StoreName, epoch: String?, role: Role) -> Action {
        if let error = configuration.identifierLimits.check(message) { return fail(error, store: store) }
        switch message {
        case .hello:
            return .reply(.error(id: nil, code: .badRequest, message: "this session already said hello"))
        case let .subscribe(id, path, since):
            guard configuration.readPermissions.allows(role, toRead: path) else {
                return fail(.forbidden(path: path, role: role, id: id), store: store)
            }
            let key = ScopedID(store: store, id: id)
            if !subscriptions.contains(key), subscriptions.count >= configuration.maxSubscriptions {
                return fail(.tooManySubscriptions(limit: configuration.maxSubscriptions, id: id), store: store)
            }
            subscriptions.insert(key)
            return .request(.subscribe(id: id, path: path, since: since), store: store, epoch: since == nil ? nil : epoch)
        case .unsubscribe(let id):
            subscriptions.remove(ScopedID(store: store, id: id))
            return .request(.unsubscribe(id: id), store: store)
        case let .get(id, path):
            guard configuration.readPermissions.allows(role, toRead: path) else {
                return fail(.forbidden(path: path, role: role, id: id), store: store)
            }
            return .request(.get(id: id, path: path), store: store)
        case let .dispatch(id, action):
            guard role.mayDispatch else {
                return .reply(
                    .reject(id: id, code: .forbidden, message: "role \(role.rawValue) may not dispatch actions"), store: store)
            }
            if let refusal = configuration.actionPermissions.refusal(of: action, by: role) {
                return .reply(.reject(id: id, code: .forbidden, message: refusal), store: store)
            }
            return .request(.dispatch(id: id, action: action), store: store)
        }
    }

    /// Takes a message token and `byteCount` byte tokens; when either is
    /// missing, the refusal to send (or the close when refusals persist).
    private mutating func rateLimit(
        _ bytes: (some Collection<UInt8>)?, byteCount: Int, now: ContinuousClock.Instant
    ) -> Action? {
        let error: (String?) -> ProtocolError
        if !bucket.take(now: now) {
            error = { [configuration] in .rateLimited(messagesPerSecond: configuration.messagesPerSecond, id: $0) }
        } else if !byteBucket.take(byteCount, now: now) {
            error = { [configuration] in .byteRateLimited(bytesPerSecond: configuration.bytesPerSecond, id: $0) }
        } else {
            refusedInARow = 0
            return nil
        }
        refusedInARow += 1
        let refused = bytes.flatMap(peek)
        if case .dispatch(let actionID, _) = refused {
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
private struct ScopedID: Hashable, Sendable {
    let store: StoreName
    let id: String
}
