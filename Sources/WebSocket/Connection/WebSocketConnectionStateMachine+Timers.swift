public import NIOCore

extension WebSocketConnectionStateMachine {
    /// When the handler's timer should next fire, or `nil` for no timer.
    ///
    /// While open: the earlier of the next keepalive ping (``WebSocketConfiguration/pingInterval``
    /// after the last received byte or the last ping) and the idle timeout
    /// (``WebSocketConfiguration/idleTimeout`` after the last received
    /// byte). While closing, or closed and waiting for the server to close
    /// TCP (client): the close timeout. Re-read it after every call into
    /// the machine and re-arm the timer when it changed.
    public var nextDeadline: NIODeadline? {
        switch state {
        case .open:
            var deadlines: [NIODeadline] = []
            if let ping = configuration.pingInterval {
                deadlines.append(max(lastReceived, lastPingSent ?? lastReceived) + ping)
            }
            if let idle = configuration.idleTimeout {
                deadlines.append(lastReceived + idle)
            }
            return deadlines.min()
        case .closing, .closed:
            return closeDeadline
        }
    }

    /// Decides what the timer armed at ``nextDeadline`` calls for:
    /// - the close timeout passed: close TCP (``WebSocketCloseAction/closeConnection``);
    /// - the idle timeout passed: start the close handshake with 1001 "idle timeout";
    /// - a keepalive ping is due: write it;
    /// - otherwise (the timer was early, or activity moved the deadline): nothing.
    public mutating func timerFired(now: NIODeadline = .now()) -> WebSocketConnectionAction {
        if let closeDeadline, now >= closeDeadline {
            self.closeDeadline = nil
            state = .closed
            return .close(WebSocketCloseAction(frame: nil, closeConnection: true))
        }
        guard state == .open else { return .doNothing }
        if let idle = configuration.idleTimeout, now >= lastReceived + idle {
            return startClosing(WebSocketCloseStatus(code: .goingAway, reason: "idle timeout"), now: now)
        }
        if let ping = configuration.pingInterval, now >= max(lastReceived, lastPingSent ?? lastReceived) + ping {
            lastPingSent = now
            pingsSent += 1
            var payload = ByteBuffer()
            payload.writeInteger(pingsSent)
            return .write(encoder.encode(WebSocketFrame(opcode: .ping, payload: payload)))
        }
        return .doNothing
    }
}
