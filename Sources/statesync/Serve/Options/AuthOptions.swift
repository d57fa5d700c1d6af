import ArgumentParser

/// `serve`'s options of the `auth:` section: tokens, roles and restrictions.
struct AuthOptions: SettingOptions {
    private typealias Keys = ServeConfiguration.Auth.Keys

    @Option(help: "A token clients must send in hello: TOKEN (a writer) or TOKEN=ROLE. Repeatable; enables authentication. $STATESYNC_TOKENS takes the same, comma-separated, out of the argument list.")
    var token: [String] = []

    @Option(help: "A file of \"TOKEN ROLE\" lines; enables authentication.")
    var tokensFile: String?

    @Option(help: "A key that signs the JWTs clients may send as tokens (per-store roles in their stores claim): a PEM (ES256) or an HS256 secret of at least 32 bytes. Enables authentication.")
    var jwtKeyFile: String?

    @Option(help: "PATH=ROLE: only ROLE and above may read PATH, or any path containing it (e.g. /presence=admin). Repeatable.")
    var restrictRead: [String] = []

    @Option(help: "TYPE=ROLE: only ROLE and above may dispatch actions of TYPE (e.g. resetCounter=admin); others get forbidden. Repeatable.")
    var restrictAction: [String] = []

    @Flag(help: "Answer /metrics only with an admin token (Authorization: Bearer TOKEN); needs --token, --tokens-file or --jwt-key-file.")
    var metricsAdminOnly = false

    func add(to flags: inout FlagValues) {
        flags.set(Keys.tokens, token)
        flags.set(Keys.tokensFile, tokensFile)
        flags.set(Keys.jwtKeyFile, jwtKeyFile)
        flags.set(Keys.restrictRead, restrictRead)
        flags.set(Keys.restrictAction, restrictAction)
        flags.set(Keys.metricsAdminOnly, given: metricsAdminOnly)
    }
}
