/// The server's name and version, as sent in `welcome.server`.
public enum StateSyncServerInfo {
    /// `statesync/0.1.0`.
    public static let name = "statesync/0.1.0"
}
