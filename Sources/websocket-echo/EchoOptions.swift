import NIOCore

/// Command-line options of `websocket-echo`.
struct EchoOptions {
    /// Address to bind (default 127.0.0.1).
    var host = "127.0.0.1"
    /// Port to bind (default 9001; 0 lets the OS choose and prints it).
    var port = 9001
    /// PEM certificate chain for wss://.
    var tlsCertificate: String?
    /// PEM private key for wss://.
    var tlsKey: String?
    /// Whether permessage-deflate is accepted (default on; --no-compression).
    var compression = true
    /// Event-loop threads (default: number of cores).
    var threads = System.coreCount
    /// Largest accepted message and frame (default 64 MiB: Autobahn's case 9 sends 16 MiB).
    var maxMessageSize = 64 << 20

    static let usage = """
        usage: websocket-echo [--host H] [--port P] [--tls-cert PEM --tls-key PEM]
                              [--no-compression] [--threads N] [--max-message-size BYTES]
          /echo       echoes every message with its type
          /broadcast  sends every text message to all /broadcast clients, the sender included
          /health     plain HTTP 200
        """

    /// Parses `arguments` (without the program name).
    init(arguments: [String]) throws(EchoOptionsError) {
        var rest = arguments[...]
        func value(_ flag: String) throws(EchoOptionsError) -> String {
            guard let value = rest.popFirst() else { throw EchoOptionsError("\(flag) needs a value") }
            return value
        }
        func number(_ flag: String) throws(EchoOptionsError) -> Int {
            let text = try value(flag)
            guard let number = Int(text), number >= 0 else { throw EchoOptionsError("\(flag) \"\(text)\" is not a number") }
            return number
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--host": host = try value(flag)
            case "--port": port = try number(flag)
            case "--tls-cert": tlsCertificate = try value(flag)
            case "--tls-key": tlsKey = try value(flag)
            case "--no-compression": compression = false
            case "--threads": threads = max(1, try number(flag))
            case "--max-message-size": maxMessageSize = max(125, try number(flag))
            case "--help", "-h": throw EchoOptionsError(nil)
            default: throw EchoOptionsError("unknown option \"\(flag)\"")
            }
        }
        guard (tlsCertificate == nil) == (tlsKey == nil) else {
            throw EchoOptionsError("--tls-cert and --tls-key go together")
        }
    }
}

/// A command-line mistake; `nil` message means "print usage only".
struct EchoOptionsError: Error {
    let message: String?
    init(_ message: String?) { self.message = message }
}
