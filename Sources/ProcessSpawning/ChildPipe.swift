import Foundation

/// A pipe for one output of a child: the child gets the writing end, the
/// parent keeps the reading end as a `FileHandle`.
struct ChildPipe {
    /// The end the parent reads (closed with its `FileHandle`).
    let readingEnd: FileHandle
    /// The end the child writes to, which the parent closes once it spawned.
    let writingDescriptor: Int32

    /// A new pipe, both ends close-on-exec, so that no program another
    /// thread `exec`s meanwhile inherits them (a ``SpawnedChild`` closes them
    /// anyway; `pipe2`, which would set the flag at once, is not imported).
    init(program: String) throws(SpawnedChild.Failure) {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else {
            throw SpawnedChild.Failure(program: program, reason: "no pipe for its output: \(String(cString: strerror(errno)))")
        }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }   // cannot fail on a descriptor just made
        readingEnd = FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true)
        writingDescriptor = descriptors[1]
    }

    /// Closes the parent's writing end (the child has its own copy).
    func closeWritingEnd() {
        close(writingDescriptor)
    }
}
