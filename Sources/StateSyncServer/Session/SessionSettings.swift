/// What every session of a server shares: its configuration, its
/// authentication and the client schema versions it accepts. Made once per
/// server, so that each of many idle connections holds a reference to it
/// rather than a copy of its couple of hundred bytes.
final class SessionSettings: Sendable {
    let configuration: SessionConfiguration
    let authentication: SessionAuthentication
    let schemas: ClientSchemas

    init(configuration: SessionConfiguration, authentication: SessionAuthentication, schemas: ClientSchemas) {
        self.configuration = configuration
        self.authentication = authentication
        self.schemas = schemas
    }
}
