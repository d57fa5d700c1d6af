import StateSyncServer

extension ServeConfiguration {
    /// The server's configuration these settings give: reads the files they name and parses their
    /// entries; errors name the setting as the user gave it, and `serve` exits 1 with them.
    func serverConfiguration() throws(CommandFailure) -> StateSyncServerConfiguration {
        var configuration = StateSyncServerConfiguration()
        try network.apply(to: &configuration)
        try storage.apply(
            to: &configuration, cluster: cluster, outcomeRetention: engine.outcomeRetention,
            postgresOrigin: origins[Storage.Keys.postgresURL])
        try auth.apply(to: &configuration, origins: origins)
        configuration.connections = connections.limits
        session.apply(to: &configuration.session)
        configuration.minimumClientSchema = session.minClientSchema
        engine.apply(to: &configuration)
        stores.apply(to: &configuration)
        return configuration
    }
}
