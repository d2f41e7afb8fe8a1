// swift-tools-version:6.0
import PackageDescription

// dynd-inspect, the browser inspector: an HTTP and WebSocket server over Hummingbird and swift-nio,
// kept out of the core package (..) so that the daemon, dynctl and their tests never compile NIO.
// What it shares with the core (the socket rule, the page, the access rule, the version) comes
// from the core's library products.
let package = Package(
  name: "dynd-inspect",
  // Hummingbird declares macOS 14; dynd-inspect builds for Linux.
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "dynd-inspect", targets: ["dynd-inspect"])
  ],
  dependencies: [
    .package(name: "dynd", path: ".."),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
  ],
  targets: [
    // The server: the page and a WebSocket per page connection bridged line for line to a
    // connection of the user's dynd, behind the core's AccessGuard.
    .target(
      name: "Inspector",
      dependencies: [
        .product(name: "DaemonSocket", package: "dynd"),
        .product(name: "InspectorCore", package: "dynd"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
      ]
    ),
    .executableTarget(
      name: "dynd-inspect",
      dependencies: [
        "Inspector",
        .product(name: "DaemonSocket", package: "dynd"),
        .product(name: "ReleaseInfo", package: "dynd"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
  ]
)
