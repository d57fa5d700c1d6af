public import Foundation
public import StateSyncProtocol

/// What a session's token lets it do: a role per store pattern, and when it
/// expires. Where patterns overlap, the most specific decides (no wildcard,
/// then most literal characters); between equals, the lower role.
///
/// ```swift
/// let access = StoreAccess(grants: [try StorePattern("team-42-*"): .writer, try StorePattern("lobby"): .reader])
/// access.role(in: try StoreName("team-42-board"))   // .writer
/// access.role(in: .main)                            // nil: no access
/// ```
public struct StoreAccess: Sendable, Hashable {
    /// The role each pattern grants.
    public var grants: [StorePattern: Role]
    /// When the token expires (its `exp`), or `nil` for a token that does not.
    public var expires: Date?
    /// Who the token is for (a JWT's `sub`), for logs; `nil` when it does not say.
    public var subject: String?

    /// The most patterns one token may carry: matching a store tries each.
    public static let maxGrants = 100

    /// Access with these grants.
    public init(grants: [StorePattern: Role], expires: Date? = nil, subject: String? = nil) {
        self.grants = grants
        self.expires = expires
        self.subject = subject
    }

    /// `role` in every store, with no expiry: a token of the server's list, or no authentication.
    public static func everyStore(_ role: Role) -> StoreAccess {
        // One dictionary per role, shared by every session (copy on write):
        // an idle connection does not pay for one of its own.
        StoreAccess(grants: everyStoreGrants[role] ?? [.anyStore: role])
    }

    private static let everyStoreGrants: [Role: [StorePattern: Role]] = Dictionary(
        uniqueKeysWithValues: Role.allCases.map { ($0, [.anyStore: $0]) })

    /// The role granted in `store`, or `nil` when no pattern matches it.
    public func role(in store: StoreName) -> Role? {
        var best: (pattern: StorePattern, role: Role)?
        for (pattern, role) in grants where pattern.matches(store) {
            guard let current = best else {
                best = (pattern, role)
                continue
            }
            let rank = (pattern.isExact ? 1 : 0, pattern.literalCount)
            let currentRank = (current.pattern.isExact ? 1 : 0, current.pattern.literalCount)
            if rank > currentRank || (rank == currentRank && role < current.role) { best = (pattern, role) }
        }
        return best?.role
    }

    /// The highest role granted in any store (what the devtools and the
    /// admin routes check before they look at one store).
    public var highestRole: Role? { grants.values.max() }
}
