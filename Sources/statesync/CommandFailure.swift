import Foundation

/// A runtime failure a command reports as one line on stderr, exiting 1
/// (port in use, data directory locked, unreadable TLS or tokens files).
struct CommandFailure: Error, CustomStringConvertible {
    /// The line printed after `statesync: `.
    let message: String

    /// A failure reading `message`.
    init(message: String) {
        self.message = message
    }

    /// `error` itself when it is a ``CommandFailure``, else a failure reading
    /// its description (the client's errors and rejections are sentences).
    init(_ error: any Error) {
        self = error as? CommandFailure ?? CommandFailure(message: "\(error)")
    }

    var description: String { message }
}

/// Writes `text` and a newline to stderr.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
}

/// Writes `text` and a newline to stdout and flushes it (a parent process
/// reading the pipe sees it at once).
func printLine(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

/// Ends the process with `code`.
func terminate(_ code: Int32) -> Never {
    exit(code)
}
