import Foundation
import NIOHTTP1

extension HTTPHeaders {
    /// The token of an `Authorization: Bearer TOKEN` header: `nil` without
    /// the header, `""` (a token no server has) when it is not a Bearer one.
    var bearerToken: String? {
        guard let value = first(name: "Authorization") else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return "" }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }
}
