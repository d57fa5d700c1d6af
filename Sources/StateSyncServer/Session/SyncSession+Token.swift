import Foundation
import Logging
import NIOCore
import StateSyncProtocol
import WebSocket

/// The session's token: a JWT verified off the event loop, a refreshed
/// token put in force (`auth`), and the close when the token expires.
extension SyncSession {
    /// Verifies `token` off the event loop, then carries out what the
    /// machine makes of the outcome; the session waits meanwhile, so its
    /// messages keep their order.
    func verify(_ token: String, by jwt: JWTAuthenticator) {
        local.value.waiting = true
        let eventLoop = outbound.eventLoop
        Task { [self] in
            let outcome = await jwt.access(for: token)
            eventLoop.execute { [self] in
                local.value.waiting = false
                carryOut(local.value.machine.verified(outcome))
                handleBacklog()
            }
        }
    }

    /// Puts a refreshed token's `access` in force: `ended` subscriptions end,
    /// the session leaves stores it lost, and every engine learns its new role.
    func reauthorize(_ access: StoreAccess, endingSubscriptions ended: [ScopedSubscription]) {
        for subscription in ended {
            if access.role(in: subscription.store) != nil, let engine = engine(of: subscription.store) {
                // Past the queue's bound, not through `submit`: at most one per open
                // subscription, and the session must not start waiting halfway through.
                _ = engine.handle(.unsubscribe(id: subscription.id), from: id)   // answered `unsubscribed` by the engine
            } else {
                reply(.unsubscribed(id: subscription.id), store: subscription.store)
            }
        }
        switch (access.role(in: .main), local.value.inMain) {
        case (let role?, true):
            engine.changeRole(of: id, to: role)
        case (let role?, false):
            if let identity = local.value.identity {
                _ = engine.join(session: identity.info, clientID: identity.clientID, role: role, sink: self)
                local.value.inMain = true
            }
        case (nil, true):
            engine.leave(session: id)
            local.value.inMain = false
        case (nil, false):
            break
        }
        for (store, engine) in local.value.engines {
            if let role = access.role(in: store) {
                engine.changeRole(of: id, to: role)
            } else {
                engine.leave(session: id)
                stores.release(store)
                local.value.engines[store] = nil
            }
        }
        scheduleExpiry(of: access)
        logger.debug("token refreshed", metadata: ["session": "\(id)", "subject": "\(access.subject ?? "-")"])
    }

    /// The engine of `store` when the session is in it.
    private func engine(of store: StoreName) -> SyncEngine<App>? {
        store.isMain ? (local.value.inMain ? engine : nil) : local.value.engines[store]
    }

    /// Closes the connection when `access`'s token expires (replacing the
    /// timer of an earlier token): an `unauthorized` error, then close 1008
    /// with the reason `token expired`.
    func scheduleExpiry(of access: StoreAccess) {
        local.value.closeTimer?.cancel()
        local.value.closeTimer = nil
        guard let expires = access.expires else { return }
        let delay = TimeAmount.nanoseconds(Int64(max(0, expires.timeIntervalSinceNow) * 1e9))
        local.value.closeTimer = outbound.eventLoop.scheduleTask(in: delay) { [self] in
            logger.debug("closing", metadata: ["session": "\(id)", "reason": "token expired"])
            reply(.error(.tokenRefused("it expired at \(expires.formatted(.iso8601)); send auth with a fresh token before it expires")))
            local.value.machine.closed()
            outbound.close(code: .policyViolation, reason: "token expired", promise: nil)
        }
    }

    /// `date` in whole seconds since 1970 (a JWT's `exp`).
    static func unixSeconds(_ date: Date) -> UInt64 {
        UInt64(max(0, date.timeIntervalSince1970.rounded(.down)))
    }
}
