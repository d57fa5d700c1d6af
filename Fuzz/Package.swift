// swift-tools-version: 6.1
import PackageDescription

// The libFuzzer targets of RELIABILITY.md, in a package of their own so that
// the main package's build and `swift test` stay exactly as they are: they are
// only ever built by `scripts/fuzz` (`swift build -c release -Xswiftc
// -sanitize=fuzzer,address`). Each depends on the root package by
// path and uses only its public API. Each executable defines
// `LLVMFuzzerTestOneInput` and no `main`: libFuzzer provides the entry point.

/// Swift 6 language mode, as in the root package; `-parse-as-library` because
/// a fuzz target has no top-level code (libFuzzer's `main` calls it).
let fuzzSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .unsafeFlags(["-parse-as-library"]),
]

let package = Package(
    name: "statesync-fuzz",
    dependencies: [
        .package(name: "statesync", path: ".."),
    ],
    targets: [
        // Property checks that end the run with a report libFuzzer records as a crash.
        .target(name: "FuzzCheck", swiftSettings: [.swiftLanguageMode(.v6)]),
        // The JSON parser and serializer (StateSyncCore).
        .executableTarget(
            name: "fuzz-json",
            dependencies: ["FuzzCheck", .product(name: "StateSyncCore", package: "statesync")],
            swiftSettings: fuzzSettings
        ),
        // The WebSocket frame decoder and encoder (WebSocket).
        .executableTarget(
            name: "fuzz-frames",
            dependencies: ["FuzzCheck", .product(name: "WebSocket", package: "statesync")],
            swiftSettings: fuzzSettings
        ),
        // The protocol message decoder and encoder (StateSyncProtocol).
        .executableTarget(
            name: "fuzz-messages",
            dependencies: [
                "FuzzCheck",
                .product(name: "StateSyncProtocol", package: "statesync"),
                .product(name: "StateSyncCore", package: "statesync"),
            ],
            swiftSettings: fuzzSettings
        ),
        // JSON Patch decoding, apply and diff (StateSyncCore).
        .executableTarget(
            name: "fuzz-patch",
            dependencies: ["FuzzCheck", .product(name: "StateSyncCore", package: "statesync")],
            swiftSettings: fuzzSettings
        ),
    ]
)
