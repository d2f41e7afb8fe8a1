// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "dynd",
  // The inspector's HTTP server (dynd-inspect, over Hummingbird and swift-nio) is a package of its
  // own, inspector/, with a path dependency on this one: the daemon, dynctl and their tests never
  // compile NIO. It takes the libraries below that it needs and nothing else.
  products: [
    .library(name: "Dynamics", targets: ["Dynamics"]),
    .library(name: "DaemonSocket", targets: ["DaemonSocket"]),
    .library(name: "InspectorCore", targets: ["InspectorCore"]),
    .library(name: "ReleaseInfo", targets: ["ReleaseInfo"]),
    .executable(name: "dynd", targets: ["dynd"]),
    .executable(name: "dynctl", targets: ["dynctl"]),
    .executable(name: "dynbench", targets: ["dynbench"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
  ],
  targets: [
    // Box2D 2.4.1 (C++) behind a plain C header; nothing C++ crosses include/.
    .target(
      name: "CBox2D",
      linkerSettings: [.linkedLibrary("box2d"), .linkedLibrary("m")]
    ),
    .systemLibrary(
      name: "CLibevent",
      pkgConfig: "libevent_core",
      providers: [.apt(["libevent-dev"])]
    ),
    // epoll(7), for dynbench's frame receiver only.
    .systemLibrary(name: "CEpoll"),
    .systemLibrary(
      name: "CJSONC",
      pkgConfig: "json-c",
      providers: [.apt(["libjson-c-dev"])]
    ),
    // The small value types every layer speaks (geometry, gesture phases, parameter values).
    .target(name: "Primitives"),
    // The release's version: VERSION (a link to the checkout's top-level file), embedded.
    .target(name: "ReleaseInfo", resources: [.embedInCode("VERSION")]),
    .target(name: "Dynamics", dependencies: ["Primitives", "CBox2D"]),
    // Scenes built with the Swift API, shared by tests, the tour, dynbench and the transitions.
    .target(name: "DynamicsScenes", dependencies: ["Dynamics", "Primitives"]),
    // The tiny, total language of numbers and conditions over parameters and bounds.
    .target(name: "Expressions"),
    .target(
      name: "Transitions",
      dependencies: ["Dynamics", "DynamicsScenes", "Expressions", "Primitives"]),
    // A strict JSON reader over json-c and a writer that allocates nothing once warm.
    .target(name: "JSON", dependencies: ["CJSONC"]),
    // The wire protocol: each op's request, reply and codec; events; errors; limits.
    .target(name: "Wire", dependencies: ["Primitives", "JSON"]),
    // Sessions and ops, with no socket: what the daemon, the tests and the fuzzer drive.
    // A scene spec onto the engine: the one builder of SessionHost, dynbench and the tests.
    .target(name: "SceneBuilding", dependencies: ["Dynamics", "Primitives", "Wire"]),
    // Transitions written as documents: read, checked with every error at once, and built.
    .target(
      name: "TransitionDocuments",
      dependencies: [
        "Dynamics", "Expressions", "JSON", "Primitives", "SceneBuilding", "Transitions", "Wire",
      ]),
    .target(
      name: "SessionHost",
      dependencies: [
        "Dynamics", "Primitives", "SceneBuilding", "TransitionDocuments", "Transitions", "Wire",
      ]),
    // The host with line-speaking peers and an environment that waits to be told: for tests
    // and the fuzzer (as swift-nio's EmbeddedChannel).
    .target(name: "EmbeddedHost", dependencies: ["Primitives", "SessionHost", "Wire"]),
    // The daemon's transport: the loop, connections, lines in, messages out.
    .target(
      name: "Daemon",
      dependencies: [
        "DaemonSocket", "Primitives", "SessionHost", "TransitionDocuments", "Wire", "CLibevent",
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .executableTarget(
      name: "dynd",
      dependencies: [
        "Daemon", "ReleaseInfo", "Wire",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // The JavaScript that draws a session's frame on a canvas: the replay page and the inspector
    // (each script a .js file, linted by `make lint`, embedded at build time).
    .target(
      name: "PageScripts",
      dependencies: ["Primitives"],
      resources: [
        .embedInCode("page-basics.js"), .embedInCode("stage.js"), .embedInCode("plot.js"),
        .embedInCode("finger-velocity.js"), .embedInCode("handoff-words.js"),
        .embedInCode("motion.js"),
      ]
    ),
    // Traces from `dynctl record`, read back and drawn: the self-contained HTML player (with the
    // page scripts) and the SVG still.
    .target(
      name: "TraceRender",
      dependencies: ["JSON", "PageScripts", "Primitives", "Wire"],
      resources: [
        .embedInCode("player.js"), .embedInCode("summary.js"), .embedInCode("trace-model.js"),
      ]
    ),
    // Recorded strokes read into timed samples in points: CSV, JSON lines (and `dynctl record`
    // traces), `libinput record` YAML, Android's `getevent -lt` (docs/STROKES.md).
    .target(name: "Strokes", dependencies: ["JSON", "Primitives"]),
    // Finding and trusting the user's dynd socket: what dynd, dynctl and dynd-inspect share.
    .target(name: "DaemonSocket"),
    // dynctl's commands, one a file, and `Dynctl.run`, which runs a command line in-process and
    // returns its exit status: the executable is a `main` that exits with it, and the tests run
    // most command lines through it.
    .target(
      name: "DynctlCommands",
      dependencies: [
        "JSON", "Wire", "Primitives", "DaemonSocket", "PageScripts", "Strokes", "TraceRender",
        "ReleaseInfo", "TransitionDocuments",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(name: "dynctl", dependencies: ["DynctlCommands"]),
    // What the browser inspector needs that no HTTP stack does: who may use it (`AccessGuard`),
    // its page (the page scripts and its own, embedded), and its log of dynd's presence. The
    // server itself is the Inspector target of inspector/Package.swift.
    .target(
      name: "InspectorCore",
      dependencies: [
        "DaemonSocket", "PageScripts", .product(name: "Logging", package: "swift-log"),
      ],
      resources: [.embedInCode("Page/inspector.js"), .embedInCode("Page/inspector-controls.js")]
    ),
    // What dynbench measures and the tests check with the same drive (`TrackingProbe`): built
    // by them only, never by dynd.
    .target(name: "BenchFixtures", dependencies: ["Dynamics", "Primitives", "Transitions"]),
    .executableTarget(
      name: "dynbench",
      dependencies: [
        "BenchFixtures", "Dynamics", "DynamicsScenes", "EmbeddedHost", "JSON", "Primitives",
        "SceneBuilding", "SessionHost", "TransitionDocuments", "Transitions", "Wire", "CEpoll",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Histogram", package: "hdrhistogram-swift"),
      ]
    ),
    // One fuzz input (lines for up to four peers) through an embedded host, with its output
    // checks: what dynd-fuzz and the host tests run.
    .target(name: "HostFuzzing", dependencies: ["EmbeddedHost", "JSON", "SessionHost", "Wire"]),
    // libFuzzer entry over "line → decode → apply to a session" (`make fuzz`); a plain build
    // links it as a binary that does nothing.
    .executableTarget(name: "dynd-fuzz", dependencies: ["HostFuzzing"]),
    .executableTarget(
      name: "dynamics-tour",
      dependencies: ["Dynamics", "DynamicsScenes", "Primitives"],
      path: "examples/dynamics-tour"
    ),
    .testTarget(
      name: "DynamicsTests", dependencies: ["Dynamics", "DynamicsScenes", "Primitives", "CBox2D"]),
    .testTarget(
      name: "TransitionsTests",
      dependencies: ["BenchFixtures", "Transitions", "Dynamics", "Primitives"]),
    .testTarget(name: "WireTests", dependencies: ["JSON", "Wire", "Primitives", "TestSupport"]),
    .testTarget(name: "ExpressionsTests", dependencies: ["Expressions"]),
    .testTarget(
      name: "TransitionDocumentsTests",
      dependencies: ["JSON", "Primitives", "TransitionDocuments", "Transitions", "Wire"]),
    // Test support, linked by the tests only: the transcripts of protocol/examples parsed with
    // their JSON comparison (the host's and the daemon's replays) and the bad-line type of the
    // codec's, the host's and the daemon's bad-input corpora.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(
      name: "DaemonTests",
      dependencies: [
        "Daemon", "HostFuzzing", "JSON", "Wire", "Transitions", "Primitives", "TestSupport",
      ]),
    .testTarget(
      name: "SessionHostTests",
      dependencies: [
        "EmbeddedHost", "HostFuzzing", "JSON", "SessionHost", "Wire", "Primitives",
        "Transitions", "SceneBuilding", "Dynamics", "TestSupport",
      ]),
    .testTarget(
      name: "InspectorCoreTests",
      dependencies: ["DaemonSocket", "InspectorCore", "PageScripts", "Primitives"]),
    // The socket-location rule against the cases every copy of it passes (Tests/Shared).
    .testTarget(name: "DaemonSocketTests", dependencies: ["DaemonSocket"]),
    // Every stroke format against the cases the Python client's readers pass too (Tests/Shared).
    .testTarget(name: "StrokesTests", dependencies: ["Strokes", "Primitives"]),
    // dynctl end to end: command lines run in-process (`Dynctl.run`) against the built dynd, and
    // the built dynctl where the process itself is tested (a replayed stroke is checked against
    // the estimator run here on the same samples).
    .testTarget(
      name: "DynctlTests",
      dependencies: ["DynctlCommands", "Strokes", "Transitions", "Primitives"],
      exclude: ["golden", "scripts"]),
  ],
  cxxLanguageStandard: .cxx17
)

// Release builds of the code a frame runs through skip Swift's run-time exclusivity checks
// (swift_beginAccess on every access to a class's stored property): about 9 % of dynd's
// instructions per realtime frame (BENCHMARKS.md, "Realtime sessions at 1 000 after issue 25").
// Debug builds, which run every test, keep them.
let framePathTargets: Set = [
  "Primitives", "Dynamics", "DynamicsScenes", "Transitions", "JSON", "Wire", "SceneBuilding",
  "SessionHost", "Daemon", "dynd", "Expressions", "TransitionDocuments",
]
for target in package.targets where framePathTargets.contains(target.name) {
  target.swiftSettings =
    (target.swiftSettings ?? [])
    + [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
}
