#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StateSyncJournal

/// The data directory of a journal file: created when missing, checked for write access,
/// and held with an exclusive `flock` on the file's lock file (``JournalFileKind/lockFileName``)
/// so two servers never share it; released by ``unlock()`` or the kernel when the process dies.
final class DataDirectory: Sendable {
    /// The directory path as given.
    let path: String
    private let lockDescriptor: Int32

    /// Creates `path` (with missing parents), checks that it is writable, and
    /// takes the lock `lockFileName` in it.
    init(path: String, lockFileName: String) throws(JournalError) {
        self.path = path
        try Self.createDirectories(path)
        if access(path, W_OK) != 0 {
            throw .notWritable(path, reason: Self.errnoDescription())
        }
        let lockPath = Self.join(path, lockFileName)
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .notWritable(path, reason: "cannot open \(lockPath): \(Self.errnoDescription())")
        }
        if let code = Self.lock(descriptor) {
            close(descriptor)
            if code == EWOULDBLOCK { throw .locked(path) }
            throw .notWritable(path, reason: "cannot lock \(lockPath): \(String(cString: strerror(code)))")
        }
        lockDescriptor = descriptor
    }

    /// How long a held lock is waited for before the directory counts as in use: a lock can
    /// outlive its owner for a moment (an exiting process, a forked child not yet exec'd).
    static let lockPatience: Duration = .seconds(2)

    /// Takes the exclusive lock, retrying for up to ``lockPatience``; returns the last `errno`
    /// on failure. Runs on a background thread, so the waits block no event loop.
    private static func lock(_ descriptor: Int32) -> Int32? {
        let deadline = ContinuousClock.now + lockPatience
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return nil }
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR, ContinuousClock.now < deadline else { return code }
            usleep(20_000)
        }
    }

    /// `name` inside the directory.
    func file(_ name: String) -> String { Self.join(path, name) }

    /// Releases the lock (closing its descriptor).
    func unlock() {
        close(lockDescriptor)
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// `mkdir -p`: creates each missing component, naming the failing one.
    private static func createDirectories(_ path: String) throws(JournalError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0 {
                let code = errno
                var info = stat()
                guard code == EEXIST, stat(prefix, &info) == 0 else {
                    throw .cannotCreateDirectory(path, reason: "\(prefix): \(String(cString: strerror(code)))")
                }
                guard info.st_mode & S_IFMT == S_IFDIR else {
                    throw .cannotCreateDirectory(path, reason: "\(prefix) exists and is not a directory")
                }
            }
            prefix += "/"
        }
    }

    private static func errnoDescription() -> String {
        String(cString: strerror(errno))
    }
}
