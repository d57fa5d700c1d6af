import Glibc

/// The full-screen `mirror`'s terminal: raw keyboard input, the alternate screen, and
/// ``restore()``. Only `main`'s task uses it; ``restore()`` is idempotent so that every
/// way out (quit, Ctrl-C, SIGTERM, an error) can call it.
final class TerminalSession {
    private var original: termios
    private var isRestored = false

    /// Switches stdin to raw mode and stdout to the alternate screen.
    ///
    /// - Throws: ``CommandFailure`` when stdin is not a terminal whose mode can be set.
    init() throws(CommandFailure) {
        var mode = termios()
        guard tcgetattr(STDIN_FILENO, &mode) == 0 else {
            throw CommandFailure(message: "cannot read the terminal mode of stdin: \(String(cString: strerror(errno)))")
        }
        original = mode
        // Bytes as typed: no echo, no line editing, no signals from keys
        // (Ctrl-C and Ctrl-Z arrive as bytes 3 and 26), no CR→NL mapping, no flow control.
        mode.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        mode.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR | BRKINT | ISTRIP)
        withUnsafeMutableBytes(of: &mode.c_cc) { controls in
            controls[Int(VMIN)] = 1    // a read returns as soon as one byte is there
            controls[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &mode) == 0 else {
            throw CommandFailure(message: "cannot set the terminal to raw mode: \(String(cString: strerror(errno)))")
        }
        TerminalOutput.write(ANSI.enterAlternateScreen + ANSI.clearScreen)
    }

    /// Leaves the alternate screen, shows the cursor, resets colours and
    /// restores the terminal mode found at start.
    func restore() {
        guard !isRestored else { return }
        isRestored = true
        TerminalOutput.write(ANSI.resetStyle + ANSI.showCursor + ANSI.leaveAlternateScreen)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
    }

    deinit {
        restore()
    }

    /// Whether both stdin and stdout are terminals (the full-screen view needs both).
    static var isInteractive: Bool {
        isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    }

    /// The size of the terminal on stdout; 80×24 when it cannot be read.
    static func size() -> TerminalSize {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else {
            return TerminalSize(rows: 24, columns: 80)
        }
        return TerminalSize(rows: Int(size.ws_row), columns: Int(size.ws_col))
    }
}

@available(*, unavailable)
extension TerminalSession: Sendable {}

/// Rows and columns of a terminal.
struct TerminalSize: Sendable, Hashable {
    /// Lines, top to bottom.
    var rows: Int
    /// Character cells per line.
    var columns: Int
}

/// Writes to stdout with `write(2)`, whole and unbuffered, so escape
/// sequences reach the terminal in one piece and in order.
enum TerminalOutput {
    /// Writes all of `text`; gives up quietly when stdout is gone (the
    /// terminal closed: nothing is left to show anything on).
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                Glibc.write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
