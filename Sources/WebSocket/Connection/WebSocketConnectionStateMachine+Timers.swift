public import NIOCore

extension WebSocketConnectionStateMachine {
    /// When the handler's timer should next fire, or `nil`: while open, the earlier of the next keepalive ping and
    /// the idle timeout; while closing (or, for a client, waiting for TCP to close), the close timeout. Re-read it
    /// after every call into the machine.
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

    /// Decides what the timer armed at ``nextDeadline`` calls for: closing TCP after the close timeout, a close
    /// handshake with 1001 after the idle timeout, a due ping, or nothing when the timer was early.
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
