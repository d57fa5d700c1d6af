extension SpawnedChild {
    /// Where the child's stdout or stderr goes.
    package enum Output: Sendable {
        /// Discarded (`/dev/null`).
        case discarded
        /// A file created (or truncated) at this path.
        case file(String)
        /// A descriptor of the parent, e.g. its own stderr or a pipe's writing end.
        case descriptor(Int32)
        /// A new pipe, whose reading end is ``SpawnedChild/standardOutput`` or
        /// ``SpawnedChild/standardError``.
        case pipe
        /// Wherever stdout goes (`2>&1`): for stderr only.
        case standardOutput
    }
}
