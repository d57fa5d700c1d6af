// swift-tools-version: 6.1
import PackageDescription

// The SQLite comparison of BENCHMARKS.md ("## Journal and SQLite"): the
// journal's workload on GRDB
// (the system's libsqlite3, as the server uses it) and on sqlite-nio (SQLite
// built from source) in one run. A package of its own, so that the main
// package never compiles sqlite-nio.
//
//   cd Benchmarks/SQLiteEngineBenchmarks && swift build -c release
//   .build/release/sqlite-engine-benchmarks DIR
//
// Dependencies are pinned to the exact versions measured with.
let package = Package(
    name: "SQLiteEngineBenchmarks",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "sqlite-engine-benchmarks", targets: ["sqlite-engine-benchmarks"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", exact: "1.13.2"),
        .package(url: "https://github.com/apple/swift-nio.git", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "sqlite-engine-benchmarks",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
