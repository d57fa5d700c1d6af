import BoardApp
import StateSyncCore
import StateSyncServer

extension ServeConfiguration {
    /// What one WebSocket connection may send and hold (the file's
    /// `session:` section; defaults and why: ``SessionConfiguration``).
    struct Session: Sendable, Equatable {
        /// The largest client message in bytes. Default 1 MiB.
        var maxMessageBytes = SessionConfiguration().maxMessageBytes
        /// The deepest JSON nesting of a client message. Default 64.
        var maxNestingDepth = SessionConfiguration().maxNestingDepth
        /// Subscriptions one connection may hold. Default 256.
        var maxSubscriptions = SessionConfiguration().maxSubscriptions
        /// Sustained messages per second from one connection. Default 200.
        var messagesPerSecond = SessionConfiguration().messagesPerSecond
        /// Messages one connection may send at once above that rate. Default 400.
        var burst = SessionConfiguration().burst
        /// Sustained bytes per second from one connection (bursts of twice that). Default 1 MiB.
        var bytesPerSecond = SessionConfiguration().bytesPerSecond
        /// Bytes queued for a connection that does not read before it is closed. Default 8 MiB.
        var maxOutboundBytes = SessionConfiguration().maxOutboundBytes
        /// Pings one connection may send in a second (0: no limit). Default 100.
        var maxPingsPerSecond = SessionConfiguration().maxPingsPerSecond ?? 0
        /// Seconds a WebSocket may stay open without hello. Default 10.
        var helloTimeout = (SessionConfiguration().helloTimeout ?? .seconds(10)).inSeconds
        /// Seconds without a received byte before a ping (0: never). Default 30.
        var pingInterval = (SessionConfiguration().pingInterval ?? .zero).inSeconds
        /// Seconds without a received byte before closing with 1001 (0: never). Default 90.
        var idleTimeout = (SessionConfiguration().idleTimeout ?? .zero).inSeconds
        /// Most tokens of a path a client sends. Default 32.
        var maxPathDepth = SessionConfiguration().pathLimits.maxTokens
        /// Most bytes of a path a client sends. Default 1,024.
        var maxPathBytes = SessionConfiguration().pathLimits.maxBytes
        /// Most bytes of an id or clientId. Default 128.
        var maxIdBytes = SessionConfiguration().identifierLimits.maxIdentifierBytes
        /// Most characters of the name given in hello. Default 64.
        var maxNameLength = SessionConfiguration().identifierLimits.maxNameLength
        /// The oldest app schema version a client's hello may declare. Default: the board's.
        var minClientSchema = BoardApp.Board.schemaVersion

        /// The settings of this section.
        enum Keys {
            static let maxMessageBytes = Setting<Int>("session.maxMessageBytes", flag: "--max-message-bytes")
            static let maxNestingDepth = Setting<Int>("session.maxNestingDepth", flag: "--max-nesting-depth")
            static let maxSubscriptions = Setting<Int>("session.maxSubscriptions", flag: "--max-subscriptions")
            static let messagesPerSecond = Setting<Int>("session.messagesPerSecond", flag: "--messages-per-second")
            static let burst = Setting<Int>("session.burst", flag: "--burst")
            static let bytesPerSecond = Setting<Int>("session.bytesPerSecond", flag: "--bytes-per-second")
            static let maxOutboundBytes = Setting<Int>("session.maxOutboundBytes", flag: "--max-outbound-bytes")
            static let maxPingsPerSecond = Setting<Int>("session.maxPingsPerSecond", flag: "--max-pings-per-second")
            static let helloTimeout = Setting<Double>("session.helloTimeout", flag: "--hello-timeout")
            static let pingInterval = Setting<Double>("session.pingInterval", flag: "--ping-interval")
            static let idleTimeout = Setting<Double>("session.idleTimeout", flag: "--idle-timeout")
            static let maxPathDepth = Setting<Int>("session.maxPathDepth", flag: "--max-path-depth")
            static let maxPathBytes = Setting<Int>("session.maxPathBytes", flag: "--max-path-bytes")
            static let maxIdBytes = Setting<Int>("session.maxIdBytes", flag: "--max-id-bytes")
            static let maxNameLength = Setting<Int>("session.maxNameLength", flag: "--max-name-length")
            static let minClientSchema = Setting<Int>("session.minClientSchema", flag: "--min-client-schema")
        }

        /// The defaults.
        init() {}

        /// The section as `settings` give it, each value checked.
        init(reading settings: inout SettingsReader) throws(ConfigurationError) {
            try settings.read(Keys.maxMessageBytes, into: &maxMessageBytes, .notBelow(1_024))
            try settings.read(Keys.maxNestingDepth, into: &maxNestingDepth, .atLeast(2, "a message is an object holding an action object"))
            try settings.read(Keys.maxSubscriptions, into: &maxSubscriptions, .atLeast(1))
            try settings.read(Keys.messagesPerSecond, into: &messagesPerSecond, .atLeast(1))
            try settings.read(Keys.burst, into: &burst, .atLeast(1))
            try settings.read(Keys.bytesPerSecond, into: &bytesPerSecond, .atLeast(1))
            try settings.read(Keys.maxOutboundBytes, into: &maxOutboundBytes, .notBelow(1 << 20, "where slow consumers start to be coalesced"))
            try settings.read(Keys.maxPingsPerSecond, into: &maxPingsPerSecond, .atLeast(0, "0 is no limit"))
            try settings.read(Keys.helloTimeout, into: &helloTimeout, .between(0.01...86_400, "seconds"))
            try settings.read(Keys.pingInterval, into: &pingInterval, .atLeast(0, "0 is never"))
            try settings.read(Keys.idleTimeout, into: &idleTimeout, .atLeast(0, "0 is never"))
            try settings.read(Keys.maxPathDepth, into: &maxPathDepth, .atLeast(1))
            try settings.read(Keys.maxPathBytes, into: &maxPathBytes, .atLeast(1))
            try settings.read(Keys.maxIdBytes, into: &maxIdBytes, .atLeast(1))
            try settings.read(Keys.maxNameLength, into: &maxNameLength, .atLeast(1))
            try settings.read(Keys.minClientSchema, into: &minClientSchema, .between(1...BoardApp.Board.schemaVersion, "(the board's app schema versions)"))
        }

        /// Each setting and its value, in the file's order.
        var entries: [ConfigurationEntry] {
            [
                ConfigurationEntry(Keys.maxMessageBytes, maxMessageBytes), ConfigurationEntry(Keys.maxNestingDepth, maxNestingDepth),
                ConfigurationEntry(Keys.maxSubscriptions, maxSubscriptions),
                ConfigurationEntry(Keys.messagesPerSecond, messagesPerSecond), ConfigurationEntry(Keys.burst, burst),
                ConfigurationEntry(Keys.bytesPerSecond, bytesPerSecond), ConfigurationEntry(Keys.maxOutboundBytes, maxOutboundBytes),
                ConfigurationEntry(Keys.maxPingsPerSecond, maxPingsPerSecond),
                ConfigurationEntry(Keys.helloTimeout, helloTimeout), ConfigurationEntry(Keys.pingInterval, pingInterval),
                ConfigurationEntry(Keys.idleTimeout, idleTimeout), ConfigurationEntry(Keys.maxPathDepth, maxPathDepth),
                ConfigurationEntry(Keys.maxPathBytes, maxPathBytes), ConfigurationEntry(Keys.maxIdBytes, maxIdBytes),
                ConfigurationEntry(Keys.maxNameLength, maxNameLength), ConfigurationEntry(Keys.minClientSchema, minClientSchema),
            ]
        }

        /// Sets these limits on the server's per-connection configuration.
        func apply(to session: inout SessionConfiguration) {
            session.maxMessageBytes = maxMessageBytes
            session.maxNestingDepth = maxNestingDepth
            session.maxSubscriptions = maxSubscriptions
            session.messagesPerSecond = messagesPerSecond
            session.burst = burst
            session.bytesPerSecond = bytesPerSecond
            session.maxOutboundBytes = maxOutboundBytes
            session.maxPingsPerSecond = maxPingsPerSecond > 0 ? maxPingsPerSecond : nil
            session.helloTimeout = .seconds(helloTimeout)
            session.pingInterval = pingInterval > 0 ? .seconds(pingInterval) : nil
            session.idleTimeout = idleTimeout > 0 ? .seconds(idleTimeout) : nil
            session.pathLimits = JSONPointer.Limits(maxTokens: maxPathDepth, maxBytes: maxPathBytes)
            session.identifierLimits = IdentifierLimits(maxIdentifierBytes: maxIdBytes, maxNameLength: maxNameLength)
        }
    }
}
