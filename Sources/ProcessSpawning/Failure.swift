extension SpawnedChild {
    /// Why a child could not be started.
    package struct Failure: Error, CustomStringConvertible {
        /// The program that was to run (`argv[0]`).
        package let program: String
        /// Why it could not, e.g. "No such file or directory".
        package let reason: String

        /// "cannot start PROGRAM: REASON".
        package var description: String { "cannot start \(program.isEmpty ? "a program" : program): \(reason)" }
    }
}
