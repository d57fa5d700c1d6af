import Foundation
import StateSyncProtocol
import StateSyncServer

extension ServeConfiguration {
    /// Who may connect and what each role may read and dispatch (the
    /// file's `auth:` section). Its entries are parsed, and the tokens file
    /// read, when the server's configuration is built (``apply(to:origins:)``).
    struct Auth: Sendable, Equatable {
        /// `TOKEN` (a writer) or `TOKEN=ROLE` entries; any enables
        /// authentication. Default none: everyone is a writer. Secrets:
        /// keep them in `STATESYNC_TOKENS` or the tokens file rather than in arguments.
        var tokens: [String] = []
        /// A file of `TOKEN ROLE` lines, added to ``tokens``. Default none.
        var tokensFile: String?
        /// A file with the key of the JWTs sessions may present (an ES256 PEM
        /// or an HS256 secret); enables authentication. Default none: JWTs are refused.
        var jwtKeyFile: String?
        /// `PATH=ROLE` entries: only ROLE and above read PATH or what contains it. Default none.
        var restrictRead: [String] = []
        /// `TYPE=ROLE` entries: only ROLE and above dispatch actions of TYPE. Default none.
        var restrictAction: [String] = []
        /// Whether `/metrics` answers admins only; needs a token. Default
        /// `false`: metrics hold counts, not state, and scrapers seldom have a token.
        var metricsAdminOnly = ServeConfiguration.serverDefaults.metricsAdminOnly

        /// The settings of this section.
        enum Keys {
            static let tokens = Setting<[String]>("auth.tokens", flag: "--token", secret: SecretMask.tokens)
            static let tokensFile = Setting<String>("auth.tokensFile", flag: "--tokens-file")
            static let jwtKeyFile = Setting<String>("auth.jwtKeyFile", flag: "--jwt-key-file")
            static let restrictRead = Setting<[String]>("auth.restrictRead", flag: "--restrict-read")
            static let restrictAction = Setting<[String]>("auth.restrictAction", flag: "--restrict-action")
            static let metricsAdminOnly = Setting<Bool>("auth.metricsAdminOnly", flag: "--metrics-admin-only")
        }

        /// The defaults.
        init() {}

        /// The section as `settings` give it.
        init(reading settings: inout SettingsReader) throws(ConfigurationError) {
            try settings.read(Keys.tokens, into: &tokens)
            try settings.read(Keys.tokensFile, into: &tokensFile)
            try settings.read(Keys.jwtKeyFile, into: &jwtKeyFile)
            try settings.read(Keys.restrictRead, into: &restrictRead)
            try settings.read(Keys.restrictAction, into: &restrictAction)
            try settings.read(Keys.metricsAdminOnly, into: &metricsAdminOnly)
        }

        /// Each setting and its value, in the file's order.
        var entries: [ConfigurationEntry] {
            [
                ConfigurationEntry(Keys.tokens, tokens), ConfigurationEntry(Keys.tokensFile, tokensFile),
                ConfigurationEntry(Keys.jwtKeyFile, jwtKeyFile),
                ConfigurationEntry(Keys.restrictRead, restrictRead), ConfigurationEntry(Keys.restrictAction, restrictAction),
                ConfigurationEntry(Keys.metricsAdminOnly, metricsAdminOnly),
            ]
        }

        /// Sets the server's tokens (reading the tokens file, and warning
        /// when others can read it), read and action restrictions, and
        /// `/metrics` policy; `origins` name the settings in errors.
        func apply(to configuration: inout StateSyncServerConfiguration, origins: SettingOrigins) throws(CommandFailure) {
            var roles: [String: Role] = [:]
            if let tokensFile {
                let text: String
                do {
                    text = try String(contentsOfFile: tokensFile, encoding: .utf8)
                } catch {
                    throw CommandFailure(message: "cannot read the tokens file \(tokensFile): \(error.localizedDescription)")
                }
                roles = try TokensFile.parse(text, path: tokensFile)
                if let warning = TokensFile.permissionWarning(path: tokensFile) { printError(warning) }
            }
            // `STATESYNC_TOKENS` has always also been split at white space; a token holds none.
            for entry in tokens.flatMap({ $0.split(whereSeparator: \.isWhitespace) }) {
                let (token, role) = try TokensFile.parseToken(String(entry), name: origins[Keys.tokens].name)
                roles[token] = role
            }
            var jwt: JWTAuthenticator?
            if let jwtKeyFile {
                let key: JWTKey
                do {
                    key = try JWTKey.load(fileAt: jwtKeyFile)
                } catch {
                    throw CommandFailure(message: "\(origins[Keys.jwtKeyFile].name) \(jwtKeyFile): \(error.reason)")
                }
                // A public key may be read by anyone; a shared secret may not.
                if key.isSecret, let warning = TokensFile.permissionWarning(path: jwtKeyFile, holding: "the JWT secret") {
                    printError(warning)
                }
                jwt = JWTAuthenticator(key: key)
            }
            configuration.authentication = SessionAuthentication(tokens: roles, jwt: jwt)
            if metricsAdminOnly, !configuration.authentication.isRequired {
                throw CommandFailure(message: "\(origins[Keys.metricsAdminOnly].name) needs an admin token: give --token TOKEN=admin, --tokens-file, $STATESYNC_TOKENS or --jwt-key-file")
            }
            configuration.metricsAdminOnly = metricsAdminOnly
            for entry in restrictRead {
                let (path, role) = try TokensFile.parseReadRestriction(entry, name: origins[Keys.restrictRead].name)
                configuration.session.readPermissions.minimumRoles[path] = role
            }
            for entry in restrictAction {
                let (type, role) = try TokensFile.parseActionRestriction(entry, name: origins[Keys.restrictAction].name)
                configuration.session.actionPermissions.minimumRoles[type] = role
            }
        }
    }
}
