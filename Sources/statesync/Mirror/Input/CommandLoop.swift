import StateSyncClient
import StateSyncCore

/// Reads keys from stdin into the command line and runs the commands typed,
/// each dispatch in its own child task so the view stays responsive while
/// the server answers (or while offline, until it is back).
struct CommandLoop {
    /// The store actions are dispatched to.
    let store: ClientStore
    /// The view showing the line and the results.
    let screen: Screen

    /// Runs until the user quits or stdin ends; then closes the client so
    /// dispatches still waiting end too.
    func run() async {
        await withTaskGroup(of: Void.self) { dispatches in
            var keys = KeyDecoder()
            var editor = LineEditor()
            reading: for await chunk in StandardInput.chunks() {
                for key in keys.feed(chunk) {
                    switch editor.apply(key) {
                    case .none:
                        break
                    case .edited:
                        await screen.setInput(editor.text)
                    case .quit:
                        break reading
                    case .submit(let line):
                        await screen.setInput("")
                        let command: BoardCommand
                        do {
                            command = try BoardCommand(parsing: line)
                        } catch {
                            await screen.setMessage(Message(text: "\(error)", kind: .failure))
                            continue
                        }
                        switch command {
                        case .quit: break reading
                        case .nothing: break
                        case .help: await screen.setMessage(Message(text: BoardCommand.summary, kind: .info))
                        case .dispatch(let action): dispatches.addTask { await dispatch(action) }
                        }
                    }
                }
            }
            await store.client.close()
        }
    }

    /// Dispatches `action` and shows how it went.
    private func dispatch(_ action: JSONObject) async {
        let type = action["type"]?.stringValue ?? "action"
        if case .online = store.client.status.connection {
            await screen.setMessage(Message(text: "sending \(type)…", kind: .info))
        } else {
            await screen.setMessage(Message(text: "\(type) waits: it is sent when the connection is back", kind: .info))
        }
        do {
            let rev = try await store.dispatch(action)
            await screen.setMessage(Message(text: "✓ \(type) applied at rev \(rev)", kind: .success))
        } catch let rejection as DispatchRejection {
            await screen.setMessage(Message(text: "✗ \(type) \(rejection)", kind: .failure))
        } catch {
            await screen.setMessage(Message(text: "✗ \(type) failed: \(error)", kind: .failure))
        }
    }
}
