import ArgumentParser

/// An option group of `serve` whose options are settings (``Setting``). None has a default
/// of its own, so an option left out leaves the environment's or the file's value in force.
protocol SettingOptions: ParsableArguments {
    /// Adds the options given on the command line to `flags`.
    func add(to flags: inout FlagValues)
}

extension ArgumentHelp {
    /// `abstract` and ` (default: VALUE)`, as swift-argument-parser ends the
    /// help of an option that has a default value of its own.
    init(_ abstract: String, default value: some CustomStringConvertible) {
        self.init("\(abstract) (default: \(value))")
    }
}
