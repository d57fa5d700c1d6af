import Foundation

/// The set-up `posix_spawn` performs in the child before it runs the
/// program (its file actions and attributes), built step by step by
/// ``SpawnedChild``, then spawned once.
struct SpawnActions: ~Copyable {
    // On the heap: glibc's functions take their address, which stays fixed.
    private let actions = UnsafeMutablePointer<posix_spawn_file_actions_t>.allocate(capacity: 1)
    private let attributes = UnsafeMutablePointer<posix_spawnattr_t>.allocate(capacity: 1)

    /// Empty file actions, and attributes that start the child with no signal
    /// blocked and default handling of the signals a parent commonly blocks
    /// or ignores (a child inherits both).
    init() {
        posix_spawn_file_actions_init(actions)
        posix_spawnattr_init(attributes)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD, SIGWINCH] { sigaddset(&defaultSignals, signal) }
        posix_spawnattr_setsigmask(attributes, &noSignals)
        posix_spawnattr_setsigdefault(attributes, &defaultSignals)
        posix_spawnattr_setflags(attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    }

    deinit {
        posix_spawn_file_actions_destroy(actions)
        posix_spawnattr_destroy(attributes)
        actions.deallocate()
        attributes.deallocate()
    }

    /// stdin from `/dev/null`.
    func openStandardInput() {
        posix_spawn_file_actions_addopen(actions, 0, "/dev/null", O_RDONLY, 0)
    }

    /// Points descriptor `target` (1 or 2) of the child at `output`; returns
    /// the pipe made for ``SpawnedChild/Output/pipe``.
    func redirect(_ target: Int32, to output: SpawnedChild.Output, program: String) throws(SpawnedChild.Failure) -> ChildPipe? {
        switch output {
        case .discarded: posix_spawn_file_actions_addopen(actions, target, "/dev/null", O_WRONLY, 0)
        case .file(let path): posix_spawn_file_actions_addopen(actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(actions, descriptor, target)
        case .pipe:
            let pipe = try ChildPipe(program: program)
            posix_spawn_file_actions_adddup2(actions, pipe.writingDescriptor, target)
            return pipe
        case .standardOutput:
            guard target == 2 else {
                throw SpawnedChild.Failure(program: program, reason: "stdout cannot go to stdout (.standardOutput is for stderr)")
            }
            posix_spawn_file_actions_adddup2(actions, 1, 2)
        }
        return nil
    }

    /// Runs the program in `directory` (glibc 2.29's
    /// `posix_spawn_file_actions_addchdir_np`).
    func changeDirectory(to directory: String, program: String) throws(SpawnedChild.Failure) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SpawnedChild.Failure(program: program, reason: "no such working directory \(directory)")
        }
        typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
        let add = try Self.glibcExtension("posix_spawn_file_actions_addchdir_np", as: ChangeDirectory.self, needs: "2.29", program: program)
        let result = add(actions, directory)
        guard result == 0 else {
            throw SpawnedChild.Failure(program: program, reason: "posix_spawn_file_actions_addchdir_np: \(String(cString: strerror(result)))")
        }
    }

    /// Closes every descriptor from 3 up in the child (glibc 2.34's `posix_spawn_file_actions_addclosefrom_np`), so
    /// no child holds another's pipe open. Added last, since the redirections before it use the parent's descriptors.
    func closeInheritedDescriptors(program: String) throws(SpawnedChild.Failure) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        let add = try Self.glibcExtension("posix_spawn_file_actions_addclosefrom_np", as: CloseFrom.self, needs: "2.34", program: program)
        let result = add(actions, 3)
        guard result == 0 else {
            throw SpawnedChild.Failure(program: program, reason: "posix_spawn_file_actions_addclosefrom_np: \(String(cString: strerror(result)))")
        }
    }

    /// Starts `argv` with exactly `environment` ("NAME=value" each); returns its pid.
    func spawn(_ argv: [String], environment: [String]) throws(SpawnedChild.Failure) -> pid_t {
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup($0) } + [nil]
        defer { (cArguments + cEnvironment).forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, argv[0], actions, attributes, cArguments, cEnvironment)
        guard spawned == 0 else { throw SpawnedChild.Failure(program: argv[0], reason: String(cString: strerror(spawned))) }
        return pid
    }

    /// A glibc function declared for `_GNU_SOURCE` only, which Swift does not
    /// import: looked up by name.
    private static func glibcExtension<Function>(
        _ name: String, as type: Function.Type, needs version: String, program: String
    ) throws(SpawnedChild.Failure) -> Function {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
            throw SpawnedChild.Failure(program: program, reason: "\(name) is missing: starting a child process needs glibc \(version) or later")
        }
        return unsafeBitCast(symbol, to: type)
    }
}
