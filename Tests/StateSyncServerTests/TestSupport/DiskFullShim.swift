import Foundation
import TestProcessSupport
import Testing

/// A full disk for a child process, without mounting anything: a small
/// `LD_PRELOAD` library, compiled here with the toolchain's clang, that
/// makes `write`, `pwrite`, `fsync` and `fdatasync` on regular files fail
/// with `ENOSPC` while a flag file exists. Pipes and sockets (the server's
/// log, its clients) are untouched; reads are untouched.
struct DiskFullShim {
    /// The compiled library.
    let library: String
    /// While this file exists, the child's disk is "full".
    let flag: String

    /// The environment that loads the shim into a child.
    var environment: [String: String] { ["LD_PRELOAD": library, "STATESYNC_TEST_DISK_FULL_FLAG": flag] }

    /// Compiles the shim into `directory`.
    static func build(in directory: String) async throws -> DiskFullShim {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let source = directory + "/disk-full.c"
        let library = directory + "/disk-full.so"
        try Self.source.write(toFile: source, atomically: true, encoding: .utf8)
        let compiler = try #require(Tools.tool("clang") ?? Tools.tool("cc"), "no clang or cc on PATH")
        let result = try await Subprocess.run([compiler.path, "-shared", "-fPIC", "-O1", "-o", library, source, "-ldl"])
        try #require(result.status == 0, "compiling the disk-full shim failed: \(result.errors)")
        return DiskFullShim(library: library, flag: directory + "/disk-is-full")
    }

    /// Fills the disk.
    func fill() throws {
        try Data().write(to: URL(fileURLWithPath: flag))
    }

    /// Frees it.
    func free() throws {
        try FileManager.default.removeItem(atPath: flag)
    }

    private static let source = #"""
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <errno.h>
        #include <stdlib.h>
        #include <sys/stat.h>
        #include <sys/types.h>
        #include <unistd.h>

        static int full(int fd) {
            const char *flag = getenv("STATESYNC_TEST_DISK_FULL_FLAG");
            struct stat info;
            if (flag == NULL || fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) return 0;
            if (access(flag, F_OK) != 0) return 0;
            errno = ENOSPC;
            return 1;
        }

        #define NEXT(name) static __typeof__(name) *next; if (next == NULL) next = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

        ssize_t write(int fd, const void *buffer, size_t count) {
            NEXT(write);
            return full(fd) ? -1 : next(fd, buffer, count);
        }
        ssize_t pwrite(int fd, const void *buffer, size_t count, off_t offset) {
            NEXT(pwrite);
            return full(fd) ? -1 : next(fd, buffer, count, offset);
        }
        ssize_t pwrite64(int fd, const void *buffer, size_t count, off64_t offset) {
            NEXT(pwrite64);
            return full(fd) ? -1 : next(fd, buffer, count, offset);
        }
        int fsync(int fd) {
            NEXT(fsync);
            return full(fd) ? -1 : next(fd);
        }
        int fdatasync(int fd) {
            NEXT(fdatasync);
            return full(fd) ? -1 : next(fd);
        }
        """#
}
