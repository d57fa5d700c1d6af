// swift-tools-version: 6.1
import PackageDescription

/// Settings every StateSync target shares: Swift 6 language mode (strict
/// concurrency) and the upcoming features the project has adopted.
let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "statesync",
    // The Apple platforms the client builds for: its `Synchronization`
    // (`Mutex`) and `Observation` imports need these. Only Linux is built and
    // tested here; see README.md, "Platforms".
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "StateSyncCore", targets: ["StateSyncCore"]),
        .library(name: "WebSocket", targets: ["WebSocket"]),
        .library(name: "StateSyncProtocol", targets: ["StateSyncProtocol"]),
        .library(name: "BoardApp", targets: ["BoardApp"]),
        .executable(name: "websocket-echo", targets: ["websocket-echo"]),
        .library(name: "StateSyncWebClients", targets: ["StateSyncWebClients"]),
        .library(name: "StateSyncJournal", targets: ["StateSyncJournal"]),
        .library(name: "StateSyncJournalTesting", targets: ["StateSyncJournalTesting"]),
        .library(name: "StateSyncSQLite", targets: ["StateSyncSQLite"]),
        .library(name: "StateSyncServer", targets: ["StateSyncServer"]),
        .library(name: "StateSyncPostgres", targets: ["StateSyncPostgres"]),
        .library(name: "StateSyncClient", targets: ["StateSyncClient"]),
        .library(name: "StateSyncCombine", targets: ["StateSyncCombine"]),
        .executable(name: "statesync", targets: ["statesync"]),
    ],
    // Every dependency is pinned to the exact version that the tests and
    // BENCHMARKS.md were run with (Package.resolved is not committed: these pins
    // make a clone resolve the same versions). The last group is not used by
    // any target directly: those are the dependencies' own dependencies, pinned
    // here so that their resolution cannot move either.
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections.git", exact: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio.git", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", exact: "2.37.6"),
        .package(url: "https://github.com/apple/swift-crypto.git", exact: "4.5.2"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", exact: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", exact: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", exact: "0.2.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", exact: "1.33.2"),
        // `statesync serve --config`: files (JSON, and YAML through Yams) and environment variables.
        .package(url: "https://github.com/apple/swift-configuration.git", exact: "1.4.0", traits: ["JSON", "YAML"]),
        .package(url: "https://github.com/jpsim/Yams.git", exact: "6.2.2"),
        // Per-store access tokens (`serve --jwt-key-file`): HS256 and ES256 JWTs.
        .package(url: "https://github.com/vapor/jwt-kit.git", exact: "5.8.0"),
        // `StateSyncCombine`: publishers of a mirror's slices (Apple's Combine where there is one).
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
        // Transitive only.
        .package(url: "https://github.com/apple/swift-asn1.git", exact: "1.7.4"),
        .package(url: "https://github.com/apple/swift-certificates.git", exact: "1.21.1"),
        .package(url: "https://github.com/swift-extras/swift-extras-base64", exact: "1.2.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms.git", exact: "1.1.4"),
        .package(url: "https://github.com/apple/swift-atomics.git", exact: "1.3.0"),
        .package(url: "https://github.com/apple/swift-numerics", exact: "1.1.1"),
        .package(url: "https://github.com/apple/swift-system.git", exact: "1.8.1"),
        .package(url: "https://github.com/apple/swift-nio-transport-services.git", exact: "1.28.0"),
    ],
    targets: [
        // MARK: Core: state, JSON, store. No networking.
        .target(
            name: "StateSyncCore",
            dependencies: [
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "StateSyncCoreTests",
            dependencies: ["StateSyncCore"],
            swiftSettings: strictSettings
        ),

        // MARK: Protocol: the messages of docs/PROTOCOL.md and their JSON coding.
        .target(
            name: "StateSyncProtocol",
            dependencies: ["StateSyncCore"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "StateSyncProtocolTests",
            dependencies: ["StateSyncProtocol", "StateSyncCore"],
            swiftSettings: strictSettings
        ),

        // MARK: BoardApp: the example application of docs/PROTOCOL.md.
        .target(
            name: "BoardApp",
            dependencies: ["StateSyncCore"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "BoardAppTests",
            dependencies: ["BoardApp", "StateSyncProtocol", "StateSyncCore"],
            swiftSettings: strictSettings
        ),

        // MARK: Benchmarks (release builds only): `swift run -c release json-benchmarks`
        .executableTarget(
            name: "json-benchmarks",
            dependencies: ["StateSyncCore"],
            path: "Benchmarks/JSONBenchmarks",
            swiftSettings: strictSettings
        ),
        // `swift run -c release store-benchmarks` (see BENCHMARKS.md "## Store").
        .executableTarget(
            name: "store-benchmarks",
            dependencies: ["StateSyncCore"],
            path: "Benchmarks/StoreBenchmarks",
            swiftSettings: strictSettings
        ),

        // `swift run -c release protocol-benchmarks` (see BENCHMARKS.md "## JSON and the protocol").
        .executableTarget(
            name: "protocol-benchmarks",
            dependencies: ["StateSyncCore", "StateSyncProtocol", "StateSyncLoad"],
            path: "Benchmarks/ProtocolBenchmarks",
            swiftSettings: strictSettings
        ),

        // `swift run -c release optimistic-benchmarks` (see BENCHMARKS.md "## Optimistic rebase").
        .executableTarget(
            name: "optimistic-benchmarks",
            dependencies: ["StateSyncCore", "StateSyncClient", "BoardApp"],
            path: "Benchmarks/OptimisticBenchmarks",
            swiftSettings: strictSettings
        ),

        // MARK: WebSocket: our own RFC 6455 + RFC 7692 on SwiftNIO.
        .target(
            name: "WebSocket",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // MARK: websocket-echo: echo/broadcast server for Autobahn, interop and wsbench.
        .executableTarget(
            name: "websocket-echo",
            dependencies: [
                "WebSocket",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "websocket-codec-benchmarks",
            dependencies: [
                "WebSocket",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Benchmarks/WebSocketCodecBenchmarks",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebSocketTests",
            dependencies: [
                "WebSocket",
                "TestProcessSupport",
                "ProcessSpawning",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strictSettings
        ),

        // MARK: Web clients: clients/js (the canonical place of the browser files) as
        // resources, so the server serves statesync.js and devtools, and the CLI the board page.
        .target(
            name: "StateSyncWebClients",
            path: "clients/js",
            exclude: ["tests", "types-test", "examples", "package.json", "statesync.d.ts", "protocol.d.ts", "README.md"],
            sources: ["WebClientFiles.swift"],
            resources: [.copy("statesync.js"), .copy("board.html"), .copy("devtools.html"), .copy("devtools.js")],
            swiftSettings: strictSettings
        ),

        // MARK: StateSyncJournal: the seam to storage. The `Journal` protocol and its
        // `SharedJournal` refinement, the journal model, the in-memory journal and the one
        // group-commit writer every stored journal uses.
        .target(
            name: "StateSyncJournal",
            dependencies: [
                "StateSyncCore",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The contract every journal keeps, as a kit a storage module's tests run
        // (memory, SQLite and PostgreSQL run the same cases).
        .target(
            name: "StateSyncJournalTesting",
            dependencies: ["StateSyncJournal", "StateSyncCore"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "StateSyncJournalTests",
            dependencies: ["StateSyncJournal", "StateSyncJournalTesting", "StateSyncCore", "TestProcessSupport",
                .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        // MARK: StateSyncSQLite: the embedded journal (one SQLite file under a data directory).
        .target(
            name: "StateSyncSQLite",
            dependencies: [
                "StateSyncJournal",
                "StateSyncCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "StateSyncSQLiteTests",
            dependencies: ["StateSyncSQLite", "StateSyncJournal", "StateSyncJournalTesting", "StateSyncCore",
                "TestProcessSupport", "ProcessSpawning",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),

        // MARK: Server: engine, sessions, fan-out, HTTP routes, metrics; storage through StateSyncJournal.
        .target(
            name: "StateSyncServer",
            dependencies: [
                "StateSyncCore",
                "StateSyncJournal",
                "StateSyncSQLite",
                "StateSyncProtocol",
                "StateSyncWebClients",
                "WebSocket",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "StateSyncServerTests",
            dependencies: [
                "StateSyncServer",
                "StateSyncJournal",
                "StateSyncJournalTesting",
                "StateSyncSQLite",
                "StateSyncWebClients",
                "StateSyncLoad",
                "StateSyncCore",
                "StateSyncProtocol",
                "StateSyncTestSupport",
                "TestProcessSupport",
                "ProcessSpawning",
                "BoardApp",
                "WebSocket",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Interop/protocol_scenario.py", "Fixtures"],
            swiftSettings: strictSettings
        ),
        // MARK: StateSyncPostgres: the cluster's shared journal in PostgreSQL.
        .target(
            name: "StateSyncPostgres",
            dependencies: [
                "StateSyncJournal",
                "StateSyncCore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "StateSyncPostgresTests",
            dependencies: [
                "BoardApp",
                "StateSyncPostgres",
                "StateSyncJournal",
                "StateSyncJournalTesting",
                "StateSyncServer",
                "StateSyncClient",
                "StateSyncCore",
                "StateSyncTestSupport",
                "TestProcessSupport",
                "WebSocket",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // MARK: ProcessSpawning: child processes by posix_spawn (never Foundation's
        // `Process`, which crashes now and then on Linux), for tools, benchmarks and tests.
        .target(
            name: "ProcessSpawning",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ProcessSpawningTests",
            dependencies: ["ProcessSpawning", "TestProcessSupport"],
            swiftSettings: strictSettings
        ),
        // MARK: Process helpers for tests, on Foundation and ProcessSpawning alone (so
        // WebSocketTests pulls in no server): subprocesses, reserved ports, certificates, tools on PATH.
        .target(
            name: "TestProcessSupport",
            dependencies: ["ProcessSpawning"],
            path: "Tests/TestProcessSupport",
            swiftSettings: strictSettings
        ),
        // MARK: Test support shared by the end-to-end suites: an in-process server,
        // a raw protocol client, the `statesync` binary as a child process.
        .target(
            name: "StateSyncTestSupport",
            dependencies: [
                "StateSyncServer",
                "StateSyncJournal",
                "StateSyncCore",
                "StateSyncProtocol",
                "BoardApp",
                "WebSocket",
                "TestProcessSupport",
                "ProcessSpawning",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/StateSyncTestSupport",
            swiftSettings: strictSettings
        ),

        // MARK: Client: a local mirror of the server's state, dispatch, reconnect.
        .target(
            name: "StateSyncClient",
            dependencies: [
                "StateSyncCore",
                "StateSyncProtocol",
                "WebSocket",
                .product(name: "NIOCore", package: "swift-nio"),
                // The store administration's HTTP requests (`StoreAdminClient`).
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strictSettings
        ),
        // Combine-style publishers over the client's mirrors, for apps written
        // with Combine or RxSwift drivers (docs/observing.md).
        .target(
            name: "StateSyncCombine",
            dependencies: [
                "StateSyncClient",
                "StateSyncCore",
                .product(name: "OpenCombineShim", package: "OpenCombine"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "StateSyncClientTests",
            dependencies: [
                "StateSyncClient",
                "StateSyncCombine",
                .product(name: "OpenCombineShim", package: "OpenCombine"),
                "StateSyncCore",
                "StateSyncProtocol",
                "StateSyncServer",
                "StateSyncTestSupport",
                "TestProcessSupport",
                "BoardApp",
                "WebSocket",
            ],
            swiftSettings: strictSettings
        ),

        // MARK: StateSyncLoad: the load generator behind `statesync bench`.
        .target(
            name: "StateSyncLoad",
            dependencies: [
                "StateSyncCore",
                "StateSyncProtocol",
                "WebSocket",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "StateSyncLoadTests",
            dependencies: [
                "StateSyncLoad",
                "StateSyncCore",
                "StateSyncProtocol",
                "StateSyncTestSupport",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: strictSettings
        ),

        // MARK: statesync: the command-line tool (`serve`, `get`, `watch`, `dispatch`, `mirror`, `bench`).
        .executableTarget(
            name: "statesync",
            dependencies: [
                "StateSyncServer",
                "StateSyncJournal",
                "StateSyncSQLite",
                "ProcessSpawning",
                "StateSyncPostgres",
                "StateSyncClient",
                "StateSyncLoad",
                "StateSyncCore",
                "StateSyncProtocol",
                "StateSyncWebClients",
                "BoardApp",
                "WebSocket",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strictSettings
        ),
        // The CLI's client commands as processes against a real `statesync serve`,
        // `mirror` driven in tmux, and unit tests of its pure parts (@testable).
        .testTarget(
            name: "StatesyncCLITests",
            dependencies: [
                "statesync",
                "StateSyncTestSupport",
                "TestProcessSupport",
                "StateSyncClient",
                "StateSyncServer",
                "StateSyncProtocol",
                "StateSyncCore",
                "BoardApp",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // `scripts/soak`: clients, random disconnects, slow readers and server SIGKILLs
        // against `statesync serve` (RELIABILITY.md "Soak").
        .executableTarget(
            name: "statesync-soak",
            dependencies: [
                "StateSyncClient",
                "ProcessSpawning",
                "StateSyncCore",
                "StateSyncProtocol",
                "WebSocket",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        // Child process of the journal crash test: appends until SIGKILLed.
        .executableTarget(
            name: "journal-crash-writer",
            dependencies: ["StateSyncSQLite", "StateSyncJournal", "StateSyncCore", .product(name: "Logging", package: "swift-log")],
            path: "Tests/JournalCrashWriter",
            swiftSettings: strictSettings
        ),
        // `swift run -c release server-benchmarks` (see BENCHMARKS.md "## Server engine, fan-out and load").
        .executableTarget(
            name: "server-benchmarks",
            dependencies: [
                "StateSyncServer", "StateSyncJournal", "StateSyncSQLite", "StateSyncCore", "StateSyncProtocol", "BoardApp",
                "ProcessSpawning",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            path: "Benchmarks/ServerBenchmarks",
            swiftSettings: strictSettings
        ),
        // `swift run -c release cluster-failover-benchmarks POSTGRES_URL` (BENCHMARKS.md "## PostgreSQL and the cluster").
        .executableTarget(
            name: "cluster-failover-benchmarks",
            dependencies: ["StateSyncClient", "StateSyncCore", "ProcessSpawning"],
            path: "Benchmarks/ClusterFailoverBenchmarks",
            swiftSettings: strictSettings
        ),
        // `swift run -c release stores-benchmarks` (BENCHMARKS.md "## Many stores").
        .executableTarget(
            name: "stores-benchmarks",
            dependencies: ["ProcessSpawning", "StateSyncLoad"],
            path: "Benchmarks/StoresBenchmarks",
            swiftSettings: strictSettings
        ),
        // `swift run -c release journal-benchmarks` (see BENCHMARKS.md "## Journal and SQLite").
        .executableTarget(
            name: "journal-benchmarks",
            dependencies: ["StateSyncSQLite", "StateSyncJournal", "StateSyncCore", .product(name: "Logging", package: "swift-log")],
            path: "Benchmarks/JournalBenchmarks",
            swiftSettings: strictSettings
        ),
        // Start-up of a store one app schema version behind (BENCHMARKS.md).
        .executableTarget(
            name: "schema-benchmarks",
            dependencies: [
                "StateSyncServer", "StateSyncSQLite", "StateSyncJournal", "StateSyncCore", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/SchemaBenchmarks",
            swiftSettings: strictSettings
        ),
    ]
)
