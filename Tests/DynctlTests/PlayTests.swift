import Foundation
import Testing

/// `dynctl play` and `dynctl handoff` on every required transition through a real dynd.
@Suite("dynctl play and handoff")
struct PlayTests {
  static let gestures: [(String, [String])] = [
    (
      "lock-screen",
      ["--pan", "160,500:160,380", "--duration", "0.2", "--release-velocity", "0,-1400"]
    ),
    ("wave-pop", ["--pan", "5,289:200,289", "--duration", "0.4", "--release-velocity", "800,0"]),
    (
      "sidebar-menu",
      ["--pan", "10,300:100,300", "--duration", "0.2", "--release-velocity", "600,0"]
    ),
  ]

  @Test("the same gesture twice gives byte-identical output; the handoff check passes")
  func byteIdenticalAndExact() throws {
    let daemon = try PrivateDaemon()
    defer { daemon.stop() }
    for (transition, gesture) in Self.gestures {
      let arguments = ["-j", "play", transition, "--session", "same", "--frames"] + gesture
      let first = try daemon.dynctl(arguments)
      let second = try daemon.dynctl(arguments)
      #expect(first.status == 0, "\(transition): \(first.error)")
      #expect(first.output.count > 1000, "frames were printed")
      #expect(first.output == second.output, "\(transition) differs between two runs")
      #expect(first.output.contains(#""ev":"done""#))
      let check = try daemon.dynctl(["handoff", transition] + gesture)
      #expect(check.status == 0, "\(transition): \(check.output) \(check.error)")
      #expect(check.output.contains("difference 0 pt/s"), "\(check.output)")
    }
  }

  @Test("play reports each required transition's outcome")
  func outcomes() throws {
    let daemon = try PrivateDaemon()
    defer { daemon.stop() }
    let cases: [([String], String)] = [
      (["lock-screen", "--tap", "300,550"], "bounced"),
      (
        [
          "wave-pop", "--pan", "5,289:200,289", "--duration", "0.4", "--release-velocity", "-300,0",
        ],
        "cancelled"
      ),
      (["sidebar-menu", "--swipe", "right"], "opened"),
    ]
    for (arguments, outcome) in cases {
      let result = try daemon.dynctl(["play"] + arguments)
      #expect(result.status == 0, "\(arguments): \(result.error)")
      #expect(result.output.hasSuffix("outcome: \(outcome)\n"), "\(result.output)")
    }
  }
}
