public import NIOCore
import Synchronization

/// The sending side of a WebSocket connection, usable from any thread or task. The `async` methods suit
/// tasks; the `write` methods are synchronous, never create a task, and write directly on the connection's
/// event loop (elsewhere they hop once). ``isWritable`` is `false` above the high-water mark until below the
/// low-water mark: the `async` sends wait for it, the `write` methods never do (fan-out checks it and skips).
///
/// ```swift
/// try await outbound.send(text: "hello")
/// outbound.write(try WebSocketPreparedMessage(.text("to everyone")))   // from any thread
/// try await outbound.close(code: .normalClosure, reason: "bye")
/// ```
public final class WebSocketOutbound: Sendable {
    /// The connection's channel.
    public let channel: any Channel
    /// The event loop every write of this connection runs on.
    public var eventLoop: any EventLoop { channel.eventLoop }
    /// The subprotocol agreed in the handshake, if any.
    public let subprotocol: String?

    private let handler: NIOLoopBound<any WebSocketOutboundTarget>
    private let finalStatus = Mutex<WebSocketCloseStatus?>(nil)

    init(channel: any Channel, subprotocol: String?, handler: any WebSocketOutboundTarget) {
        self.channel = channel
        self.subprotocol = subprotocol
        self.handler = NIOLoopBound(handler, eventLoop: channel.eventLoop)
    }

    // MARK: Async API

    /// Sends a text message, then waits until the connection is writable.
    public func send(text: String) async throws {
        try await send(.text(text))
    }

    /// Sends a binary message, then waits until the connection is writable.
    public func send(binary: ByteBuffer) async throws {
        try await send(.binary(binary))
    }

    /// Sends a message (compressed when permessage-deflate was agreed and the
    /// message is large enough), then waits until the connection is writable.
    /// Throws ``WebSocketSendError/closing(_:)`` once the connection is closing.
    public func send(_ message: WebSocketMessage) async throws {
        try await onLoop { handler, promise in handler.send(message, promise: promise) }
    }

    /// Sends a message prepared once for many connections (its frame bytes
    /// are shared, not encoded again), then waits until the connection is writable.
    public func send(_ prepared: WebSocketPreparedMessage) async throws {
        try await onLoop { handler, promise in handler.send(prepared, promise: promise) }
    }

    /// Starts the close handshake and waits until the connection is closed
    /// (the peer answered, or the close timeout dropped it).
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") async throws {
        let promise = eventLoop.makePromise(of: Void.self)
        close(code: code, reason: reason, promise: promise)
        try await promise.futureResult.get()
    }

    /// Suspends until the outbound buffer has drained below the low-water mark.
    /// Throws ``WebSocketSendError/closing(_:)`` if the connection closes first.
    public func waitUntilWritable() async throws {
        if channel.isWritable { return }
        try await whenWritable().get()
    }

    /// The future form of ``waitUntilWritable()``, for event-loop code that must not start a task; fails with
    /// ``WebSocketSendError/closing(_:)`` if the connection closes first.
    public func whenWritable() -> EventLoopFuture<Void> {
        let promise = eventLoop.makePromise(of: Void.self)
        execute { $0.waitUntilWritable(promise) }
        return promise.futureResult
    }

    /// Whether the outbound buffer is below the high-water mark (readable from any thread).
    public var isWritable: Bool { channel.isWritable }

    /// Bytes written to this connection but not yet handed to the socket.
    public var bufferedOutboundBytes: Int {
        get async throws {
            try await channel.getOption(.bufferedWritableBytes).get()
        }
    }

    /// The close status once the connection is closed: the peer's (or ours,
    /// if we closed first), or 1006 when TCP dropped without a close frame.
    public var closeStatus: WebSocketCloseStatus? { finalStatus.withLock { $0 } }

    // MARK: Synchronous API (any thread, no task)

    /// Writes a message without waiting. Flushed at the end of the current
    /// read burst when called from a handler callback, otherwise at once.
    public func write(_ message: WebSocketMessage) {
        // On the loop, no closure: it would be allocated for every write.
        if eventLoop.inEventLoop {
            handler.value.send(message, promise: nil)
        } else {
            execute { $0.send(message, promise: nil) }
        }
    }

    /// Writes a prepared message without waiting (the fan-out path).
    public func write(_ prepared: WebSocketPreparedMessage) {
        if eventLoop.inEventLoop {
            handler.value.send(prepared, promise: nil)
        } else {
            execute { $0.send(prepared, promise: nil) }
        }
    }

    /// Starts the close handshake; `promise` completes when the channel is closed.
    public func close(code: WebSocketCloseCode, reason: String, promise: EventLoopPromise<Void>?) {
        execute { $0.close(status: WebSocketCloseStatus(code: code, reason: reason), promise: promise) }
    }

    /// Stops reading from the socket until ``resumeReading()`` (TCP flow control then slows the peer), for an
    /// event-loop handler whose backlog is full. Messages of the current read are still delivered.
    public func holdReading() {
        execute { $0.holdReading() }
    }

    /// Reads from the socket again after ``holdReading()`` (unless the
    /// connection holds reads for its own reasons: a full outbound buffer).
    public func resumeReading() {
        execute { $0.resumeReading() }
    }

    /// Bytes waiting for the socket; call only on ``eventLoop``.
    public var bufferedOutboundBytesOnEventLoop: Int {
        handler.value.bufferedOutboundBytes
    }

    // MARK: Internals

    func recordClose(_ status: WebSocketCloseStatus) {
        finalStatus.withLock { current in
            if current == nil { current = status }
        }
    }

    private func execute(_ body: @escaping @Sendable (any WebSocketOutboundTarget) -> Void) {
        if eventLoop.inEventLoop {
            body(handler.value)
        } else {
            let handler = self.handler
            eventLoop.execute { body(handler.value) }
        }
    }

    private func onLoop(_ body: @escaping @Sendable (any WebSocketOutboundTarget, EventLoopPromise<Void>) -> Void) async throws {
        let promise = eventLoop.makePromise(of: Void.self)
        execute { body($0, promise) }
        try await promise.futureResult.get()
    }
}
