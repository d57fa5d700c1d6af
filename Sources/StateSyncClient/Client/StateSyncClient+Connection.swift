import NIOCore
import StateSyncCore
import StateSyncProtocol
import WebSocket

extension StateSyncClient {
    /// Runs the connection until ``close()`` or cancellation: connects, says hello, restores subscriptions and
    /// unanswered requests, and after a drop waits (``ReconnectPolicy``) and tries the next URL.
    ///
    /// - Throws: ``StateSyncClientError/cannotConnect(url:reason:)`` when the first attempt at every URL fails
    ///   (unless `waitsForServer`), ``StateSyncClientError/refused(url:code:message:)`` when the server refuses
    ///   the session. Returns normally after ``close()``.
    public nonisolated func run() async throws {
        // Nonisolated so that the connection's (non-Sendable) message iterator
        // stays in this task; each message then hops onto the actor.
        if let outboxFailure {
            await end(with: outboxFailure)
            throw outboxFailure
        }
        let urls = configuration.urls
        guard !urls.isEmpty else {
            let error = StateSyncClientError.cannotConnect(url: "", reason: "the configuration names no URL")
            await end(with: error)
            throw error
        }
        // Failed attempts since the last welcome, and the URL the next one uses.
        var attempt = 0
        var next = 0
        var wasOnline = false
        // close() may come at any await; each following step checks on the actor, so a closed client never goes
        // online (nothing would close that connection, and run() would not end).
        while await startAttempt() {
            let reason: String
            do {
                let url = urls[next]
                let connection = try await openConnection(to: url)
                guard await opened(connection) else { break }
                var messages = connection.inbound.makeAsyncIterator()
                let welcome = try await readWelcome(from: &messages, on: connection, url: url)
                attempt = 0
                wasOnline = true
                guard await online(connection, welcome: welcome) else { break }
                while let message = await messages.next() {
                    await receive(message)
                }
                await offline()
                reason = Self.describeDrop(connection.closeStatus)
            } catch let error as StateSyncClientError
                        where error.isFatal || !(wasOnline || configuration.waitsForServer || attempt + 1 < urls.count) {
                if await isClosed { break }   // the connection failed because close() closed it
                await end(with: error)
                throw error
            } catch {
                reason = "\(error)"
            }
            guard await !isClosed && !Task.isCancelled else { break }
            attempt += 1
            next = (next + 1) % urls.count
            setConnection(.offline(reason: reason))
            // The delay grows with each full round of the URLs.
            await pause(configuration.reconnect.delay(forAttempt: (attempt - 1) / urls.count + 1))
        }
        await end(with: StateSyncClientError.closed)
    }

    /// Opens the WebSocket to `url` and says hello.
    private nonisolated func openConnection(to url: String) async throws -> WebSocketConnection {
        let connection: WebSocketConnection
        do {
            connection = try await WebSocketClient.connect(
                url: url, subprotocols: [ProtocolVersion.subprotocol], configuration: configuration.webSocket,
                tlsConfiguration: configuration.tlsConfiguration)
        } catch let error as WebSocketClientError {
            throw StateSyncClientError.cannotConnect(url: url, reason: error.reason)
        } catch {
            throw StateSyncClientError.cannotConnect(url: url, reason: "\(error)")
        }
        send(.hello(clientID: clientID, token: await token, name: configuration.name, schemaVersion: configuration.schemaVersion), on: connection)
        return connection
    }

    /// The server's first message: a welcome, or the refusal of the session.
    private nonisolated func readWelcome(
        from messages: inout WebSocketInboundMessages.AsyncIterator, on connection: WebSocketConnection, url: String
    ) async throws -> ServerMessage {
        guard let first = await messages.next() else {
            throw StateSyncClientError.cannotConnect(
                url: url, reason: "the server closed the connection before its welcome (\(Self.describeDrop(connection.closeStatus)))")
        }
        let message: ServerMessage
        do {
            message = try MessageDecoder().decodeServerMessage(first.data.readableBytesView)
        } catch {
            connection.outbound.close(code: .protocolError, reason: "expected welcome", promise: nil)
            throw StateSyncClientError.cannotConnect(url: url, reason: "the server's first message is not a StateSync message: \(error)")
        }
        switch message {
        case .welcome:
            return message
        case .error(_, let code, let text) where code == .unauthorized || code == .helloRequired || code == .upgradeRequired:
            throw StateSyncClientError.refused(url: url, code: code, message: text)
        case .error(_, .schemaTooNew, let text):
            // A node older than this client (a rolling upgrade): the next URL may serve it.
            throw StateSyncClientError.cannotConnect(url: url, reason: text)
        default:
            connection.outbound.close(code: .protocolError, reason: "expected welcome", promise: nil)
            throw StateSyncClientError.cannotConnect(url: url, reason: "the server answered hello with \(message.type), not welcome")
        }
    }

    /// Starts an attempt (``ClientStatus/connection`` `connecting`) unless
    /// the client is closed or its task cancelled.
    private func startAttempt() -> Bool {
        opening = nil
        guard !isClosed && !Task.isCancelled else { return false }
        setConnection(.connecting)
        return true
    }

    /// Records `connection`, open and waiting for its welcome, for
    /// ``close()`` to close; closes it instead (and returns `false`) when
    /// the client was closed while it opened.
    private func opened(_ connection: WebSocketConnection) async -> Bool {
        guard isClosed else {
            opening = connection
            return true
        }
        try? await connection.outbound.close(code: .normalClosure, reason: "client closed")   // already closing or closed: nothing to do
        return false
    }

    /// Online on `connection`: records the session (a new epoch restarts `main`'s mirror) and restores every
    /// store's subscriptions and requests. `false` when ``close()`` came during the wait for the welcome.
    private func online(_ connection: WebSocketConnection, welcome: ServerMessage) -> Bool {
        opening = nil
        guard !isClosed, case .welcome(let session, let epoch, let rev, let role, _) = welcome else { return false }
        let main = state(.main)
        let isNewEpoch = main.epoch.map { $0 != epoch } ?? false
        let resent = stores.values.reduce(0) { $0 + $1.pending.dispatches.count }
        main.subscriptions.connectionEnded(newEpoch: isNewEpoch)
        main.epoch = epoch
        main.heard(rev: rev, reset: isNewEpoch)
        statusStore.performStateUpdate { status in
            status.resentDispatches += resent
            status.session = session
            status.epoch = epoch
            status.role = role
            status.rev = isNewEpoch ? rev : max(status.rev, rev)
            status.connections += 1
            status.connection = .online
        }
        self.connection = connection
        let waiters = onlineWaiters
        onlineWaiters = []
        for waiter in waiters { waiter.resume() }
        tokenInForce()
        for store in stores.values.sorted(by: { $0.name < $1.name }) {
            store.inDoubt.formUnion(store.everSent)
            store.sentDispatches = []
            for read in store.pending.reads.values {
                send(.get(id: read.id, path: read.path), in: store)
            }
            resume(store)
        }
        return true
    }

    /// The connection ended: requests wait for the next one.
    private func offline() {
        connection = nil
        for store in stores.values {
            store.subscriptions.connectionEnded(newEpoch: false)
            store.epochProbe = nil
        }
    }

    /// Waits `delay` before the next attempt, or less if ``close()`` is called. Each pause has its own wake-up
    /// stream: cancelling its iterating task finishes a stream, so a shared one would end every later pause at once.
    private nonisolated func pause(_ delay: Duration) async {
        let (wakeUp, waker) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        guard await startPause(wakingWith: waker) else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                try? await Task.sleep(for: delay)   // cancelled when woken: nothing to report
            }
            group.addTask {
                for await _ in wakeUp { return }
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// Registers the waker of the pause about to start; `false` when the
    /// client is already closed (no pause then).
    private func startPause(wakingWith waker: AsyncStream<Void>.Continuation) -> Bool {
        guard !isClosed else { return false }
        pauseWaker = waker
        return true
    }

    /// Ends the client: no more retries; waiting callers fail with `error`.
    private func end(with error: any Error) {
        if failure == nil, (error as? StateSyncClientError) != .closed {
            failure = error
        }
        isClosed = true
        connection = nil
        opening = nil
        setConnection(.closed)
        failWaiters(with: error)
    }

    /// Writes `message` on `connection` (in call order, without waiting),
    /// naming `encoder`'s store.
    nonisolated func send(_ message: ClientMessage, on connection: WebSocketConnection, encoder: MessageEncoder = MessageEncoder()) {
        let bytes = encoder.encode(message)
        connection.outbound.write(WebSocketMessage(kind: .text, data: ByteBuffer(bytes: bytes)))
    }

    /// Writes `message` of `store` on the open connection; nothing while offline.
    func send(_ message: ClientMessage, in store: StoreState) {
        guard let connection else { return }
        send(message, on: connection, encoder: store.encoder)
    }

    /// Sends, in order, every unanswered dispatch of `store` not yet sent on this connection.
    func flushDispatches(_ store: StoreState) {
        guard connection != nil else { return }
        for dispatch in store.pending.dispatchesInOrder where !store.sentDispatches.contains(dispatch.id) {
            store.sentDispatches.insert(dispatch.id)
            store.everSent.insert(dispatch.id)
            // An action written for another schema version than the session's (an outbox kept across an upgrade) says so.
            let version = dispatch.schemaVersion == configuration.schemaVersion ? nil : dispatch.schemaVersion
            send(.dispatch(id: dispatch.id, action: dispatch.action, schemaVersion: version), in: store)
        }
    }

    /// `closed by the server (1001 goingAway: shutting down)`, or `connection lost` for a drop without a close frame.
    private nonisolated static func describeDrop(_ status: WebSocketCloseStatus?) -> String {
        guard let status, status.code != .abnormalClosure else { return "connection lost" }
        return "closed by the server (\(status))"
    }
}
