import Logging
import NIOCore
import StateSyncCore
import StateSyncProtocol
import WebSocket

/// The writer's end of the cluster links (docs/PROTOCOL.md, "Between the
/// nodes of a cluster"): applies forwarded dispatches under their exactly-once
/// keys, answering each when durable; at most ``maxSessions`` sessions per link.
struct ForwardedWrites<App: StateSyncApp>: Sendable {
    /// The sessions one link may have here at once: beyond, a forward is
    /// rejected `limit_reached`, which the sending node passes on to its
    /// client (the code is also an app's, so it cannot mean "write it there").
    static var maxSessions: Int { 65_536 }

    let main: SyncEngine<App>
    let stores: StoreDirectory<App>
    /// Upcasts the actions of a sending node of an older app schema version.
    let schemas: ClientSchemas
    let logger: Logger

    /// A session of the sending node, here.
    private struct Remote: Hashable {
        let store: StoreName
        let session: String
    }

    /// Serves one link until it closes, then removes its sessions.
    func serve(_ connection: WebSocketConnection) async throws {
        var joined: [Remote: SyncEngine<App>] = [:]
        defer {
            for (remote, engine) in joined { leave(remote, engine) }
        }
        for try await message in connection.inbound {
            guard case .object(let object) = try? JSONParser().parse(Array(message.data.readableBytesView)),
                  let type = object["type"]?.stringValue, let session = object["session"]?.stringValue,
                  let store = try? StoreName(object["store"]?.stringValue ?? StoreName.main.rawValue)
            else {
                logger.warning("a cluster link sent a message that is not one; closing it")
                return
            }
            let remote = Remote(store: store, session: session)
            switch type {
            case "forward":
                await forward(object, as: remote, joined: &joined, outbound: connection.outbound)
            case "left":
                if let engine = joined.removeValue(forKey: remote) { leave(remote, engine) }
            default:
                logger.warning("a cluster link sent an unknown message; closing it", metadata: ["type": "\(type)"])
                return
            }
        }
    }

    /// Applies one forwarded dispatch, joining its session first.
    private func forward(
        _ object: JSONObject, as remote: Remote, joined: inout [Remote: SyncEngine<App>], outbound: WebSocketOutbound
    ) async {
        guard let id = object["id"]?.stringValue, case .object(let action)? = object["action"],
              let role = object["role"]?.stringValue.flatMap(Role.init(rawValue:))
        else {
            logger.warning("a cluster link forwarded a dispatch without id, action or role; dropped")
            return
        }
        let sink = ForwardedAnswers(remote.session, store: remote.store, outbound: outbound)
        // A node of a build before schema versions names none: its actions are of version 1.
        let version = object["schemaVersion"]?.intValue ?? 1
        guard version <= App.schemaVersion else {
            // A rolling upgrade: this node cannot read the action; the sending node writes it itself.
            return sink.send(answer: .reject(id: id, code: .schemaTooNew, message:
                "this writer serves app schema version \(App.schemaVersion); the forwarded action is of version \(version): the sending node writes it"))
        }
        let upcast: JSONObject
        switch schemas.upcast(action, writtenFor: version) {
        case .success(let current): upcast = current
        case .failure(let rejection): return sink.send(answer: .reject(id: id, code: RejectCode(rejection), message: rejection.message))
        }
        let engine: SyncEngine<App>
        if let known = joined[remote] {
            engine = known
        } else {
            guard joined.count < Self.maxSessions else {
                return sink.send(answer: .reject(id: id, code: RejectCode(rawValue: ErrorCode.limitReached.rawValue),
                                                 message: "the link has \(Self.maxSessions) sessions here"))
            }
            do throws(ProtocolError) {
                engine = remote.store.isMain ? main : try await stores.acquire(remote.store, role: role, from: nil)
            } catch {
                return sink.send(answer: .reject(id: id, code: RejectCode(rawValue: error.code.rawValue), message: error.message))
            }
            let name = object["name"]?.stringValue ?? remote.session
            _ = engine.join(
                session: SessionInfo(id: remote.session, name: name), clientID: object["clientId"]?.stringValue, role: role,
                sink: sink, announced: false)
            joined[remote] = engine
        }
        if let stored = engine.newerStoredSchema {
            // This node no longer serves the store (a newer node wrote it): the sending node writes the action.
            return sink.send(answer: .reject(id: id, code: .schemaTooNew, message:
                ProtocolError.storeSchemaNewer(remote.store, stored: stored, served: App.schemaVersion).message))
        }
        _ = await engine.submit(.dispatch(id: id, action: upcast), from: remote.session)
    }

    /// Removes `remote`'s session and gives its store back.
    private func leave(_ remote: Remote, _ engine: SyncEngine<App>) {
        engine.leave(session: remote.session)
        if !remote.store.isMain { stores.release(remote.store) }
    }
}

/// What the engine sends a forwarded session: each message wrapped with
/// the session and store it is for, on the link it came by.
private final class ForwardedAnswers: SessionSink {
    private let prefix: [UInt8]
    private let outbound: WebSocketOutbound

    init(_ session: String, store: StoreName, outbound: WebSocketOutbound) {
        let head: JSONObject = ["session": .string(session), "store": .string(store.rawValue)]
        var prefix = Array(JSONSerializer().string(for: .object(head)).utf8)
        prefix.removeLast()   // the closing brace: the answer follows
        prefix += Array(#","answer":"#.utf8)
        self.prefix = prefix
        self.outbound = outbound
    }

    func send(_ message: [UInt8]) {
        outbound.write(WebSocketMessage(kind: .text, data: ByteBuffer(bytes: prefix + message + [UInt8(ascii: "}")])))
    }

    /// Sends an answer the engine did not make (the session could not join).
    func send(answer: ServerMessage) {
        send(MessageEncoder().encode(answer))
    }

    var eventLoop: (any EventLoop)? { outbound.eventLoop }
    var isWritable: Bool { outbound.isWritable }

    func notifyWhenWritable(_ drained: @escaping @Sendable () -> Void) {
        outbound.whenWritable().whenComplete { _ in drained() }
    }

    func close(reason: String) {
        outbound.close(code: .policyViolation, reason: reason, promise: nil)
    }
}
