import Foundation

/// The browser files of `clients/js` (their one canonical place), copied by
/// SwiftPM into this module's resource bundle so that a `statesync` binary
/// serves them: `statesync.js`, `board.html`, `devtools.html`, `devtools.js`.
///
/// ```swift
/// let script = try WebClientFiles.file(named: "statesync.js")
/// print(script.contentType, script.bytes.count)   // text/javascript; charset=utf-8 …
/// ```
public enum WebClientFiles {
    /// Every file this module carries.
    public static let names = ["statesync.js", "board.html", "devtools.html", "devtools.js"]

    /// The file `name` (one of ``names``) with its MIME type.
    ///
    /// - Throws: ``WebClientFileError`` when `name` is not one of ``names``
    ///   or the bundle beside the executable lacks it.
    public static func file(named name: String) throws(WebClientFileError) -> WebClientFile {
        guard names.contains(name) else { throw .unknown(name) }
        let dot = name.lastIndex(of: ".") ?? name.endIndex
        guard let url = Bundle.module.url(forResource: String(name[..<dot]), withExtension: String(name[dot...].dropFirst())) else {
            throw .missing(name, bundle: Bundle.module.bundlePath)
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .missing(name, bundle: "\(url.path): \(error.localizedDescription)")
        }
        let type = name.hasSuffix(".js") ? "text/javascript; charset=utf-8" : "text/html; charset=utf-8"
        return WebClientFile(name: name, contentType: type, bytes: [UInt8](data))
    }
}

/// One file of ``WebClientFiles``.
public struct WebClientFile: Sendable, Hashable {
    /// Its name in `clients/js`, e.g. `statesync.js`.
    public let name: String
    /// Its HTTP `Content-Type`.
    public let contentType: String
    /// Its bytes.
    public let bytes: [UInt8]
}

/// Why a file of ``WebClientFiles`` could not be read.
public struct WebClientFileError: Error, CustomStringConvertible {
    private enum Base {
        case unknown(String)
        case missing(String, bundle: String)
    }

    private let base: Base

    static func unknown(_ name: String) -> WebClientFileError { WebClientFileError(base: .unknown(name)) }
    static func missing(_ name: String, bundle: String) -> WebClientFileError {
        WebClientFileError(base: .missing(name, bundle: bundle))
    }

    /// What is wrong, with the name (and the bundle path when it is missing).
    public var description: String {
        switch base {
        case .unknown(let name):
            "\(name) is not one of the web client files (\(WebClientFiles.names.joined(separator: ", ")))"
        case let .missing(name, bundle):
            "the web client file \(name) is missing from the resource bundle (\(bundle)); rebuild with swift build"
        }
    }
}
