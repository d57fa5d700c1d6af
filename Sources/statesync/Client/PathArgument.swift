import ArgumentParser
import StateSyncCore

/// Checks JSON Pointer arguments before connecting, so a typo is a usage error (exit 2).
enum PathArgument {
    /// Throws a `ValidationError` naming `path` when it is not a JSON Pointer.
    static func validate(_ path: String) throws {
        do {
            _ = try JSONPointer(parsing: path)
        } catch {
            throw ValidationError("\(error) (paths look like /todos or /counters/hits)")
        }
    }
}
