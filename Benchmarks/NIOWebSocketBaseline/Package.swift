// swift-tools-version: 6.1
import PackageDescription

// The NIOWebSocket baseline of BENCHMARKS.md: a WebSocket server and a load
// client built only from swift-nio's own NIOWebSocket, the reference that the
// repository's WebSocket module (our implementation) is measured against.
// A package of its own, so that the main package never depends on NIOWebSocket.
//
//   cd Benchmarks/NIOWebSocketBaseline && swift build -c release
//
// Dependencies are pinned to the exact versions measured with, as in the main
// Package.swift (Package.resolved is not committed).
let package = Package(
    name: "NIOWebSocketBaseline",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "nio-ws-server", targets: ["nio-ws-server"]),
        .executable(name: "wsload", targets: ["wsload"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", exact: "0.2.0"),
        // Transitive only, pinned so that their resolution cannot move either.
        .package(url: "https://github.com/apple/swift-atomics.git", exact: "1.3.0"),
        .package(url: "https://github.com/apple/swift-collections.git", exact: "1.6.0"),
        .package(url: "https://github.com/apple/swift-numerics", exact: "1.1.1"),
        .package(url: "https://github.com/apple/swift-system.git", exact: "1.8.1"),
    ],
    targets: [
        // The baseline server: /echo and /broadcast over NIOWebSocketServerUpgrader.
        .executableTarget(
            name: "nio-ws-server",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The load client of scripts/bench-websocket and scripts/bench-load.
        .executableTarget(
            name: "wsload",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
