extension Duration {
    /// The duration in seconds, as `serve`'s settings take durations.
    var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
