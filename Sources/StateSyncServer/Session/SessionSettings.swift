import StateSyncCore
import StateSyncProtocol

/// What every session of a server shares: configuration, authentication and
/// accepted client schemas. A class, so idle connections hold a reference, not a copy.
final class SessionSettings: Sendable {
    let configuration: SessionConfiguration
    let authentication: SessionAuthentication
    let schemas: ClientSchemas
    /// The decoder of client messages, with the configuration's limits.
    let decoder: MessageDecoder
    /// Each session's rate of messages, and of their bytes.
    let messageRate: TokenBucket.Rate
    let byteRate: TokenBucket.Rate

    init(configuration: SessionConfiguration, authentication: SessionAuthentication, schemas: ClientSchemas) {
        self.configuration = configuration
        self.authentication = authentication
        self.schemas = schemas
        var limits = JSONParser.Limits()
        limits.maxInputBytes = configuration.maxMessageBytes
        limits.maxDepth = configuration.maxNestingDepth
        decoder = MessageDecoder(limits: limits, pathLimits: configuration.pathLimits)
        messageRate = TokenBucket.Rate(perSecond: configuration.messagesPerSecond, capacity: configuration.burst)
        byteRate = TokenBucket.Rate(perSecond: configuration.bytesPerSecond, capacity: configuration.byteBurst)
    }
}
