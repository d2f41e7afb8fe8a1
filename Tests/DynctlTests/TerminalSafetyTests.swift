import Foundation
import Glibc
import Testing

/// dynctl never prints a control or bidirectional formatting character it got from the daemon:
/// readable output shows `\uXXXX`, `--json` writes the same JSON value with the escape.
@Suite("dynctl: printing names safely")
struct TerminalSafetyTests {
  /// The raw forms that must never reach the terminal.
  static func hasUnsafe(_ text: String) -> Bool {
    text.unicodeScalars.contains { scalar in
      switch scalar.value {
      case 0x0A: false  // line ends
      case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
        true
      default: false
      }
    }
  }

  @Test("messages quoting what a client sent show its control and bidi characters escaped")
  func errorMessages() throws {
    let daemon = try PrivateDaemon()
    defer { daemon.stop() }
    // The daemon quotes an unknown field's name in its message, escaped (dynd escapes C0, DEL,
    // C1 and bidi), and dynctl decodes it.
    let request = #"{"op":"hello","\u001b]0;x\u0007\u009b2J\u202eab\u007f":1}"#
    let human = daemon.dynctl(["send", request])
    #expect(human.status == 65)
    #expect(!Self.hasUnsafe(human.error), "\(human.error.debugDescription)")
    #expect(
      human.error
        == "dynctl: unknown_field: field '\\u001B]0;x\\u0007\\u009B2J\\u202Eab\\u007F' is not "
        + "defined for op 'hello'\n")
    let json = daemon.dynctl(["-j", "send", request])
    #expect(json.status == 65)
    #expect(!Self.hasUnsafe(json.output), "\(json.output.debugDescription)")
    #expect(
      json.output.contains(#"field '\u001b]0;x\u0007\u009b2J\u202eab\u007f' is not defined"#),
      "\(json.output)")
    #expect(!Self.hasUnsafe(json.error))
  }

  /// A daemon that is not dynd (or an older one) may send names dynd now refuses. The dynctl
  /// binary is spawned: what a terminal would get is the bytes the process writes to its
  /// descriptors 1 and 2, which are checked here (`errorMessages` runs dynctl in-process).
  @Test("names from the daemon are printed escaped, in every mode, and tables stay aligned")
  func hostileNames() throws {
    let directory = try Trust.temporaryDirectory("safety")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let socket = directory + "/s.sock"
    // C0 escaped, as JSON must; DEL, C1 and bidi raw, as dynd's encoder writes them.
    let event = "{\"ev\":\"done\",\"session\":\"x\\u001b[2J\",\"outcome\":\"o\u{202E}k\u{9B}\"}"
    let reply =
      "{\"ok\":true,\"id\":1,\"sessions\":[{\"session\":\"a\u{202E}b\",\"transition\":\"t\u{85}\","
      + "\"clock\":\"manual\",\"running\":false},{\"session\":\"\\u001b[31mred\","
      + "\"transition\":null,\"clock\":\"realtime\",\"running\":true,\"missed_ticks\":7}]}"
    let daemon = try FakeDaemon(socket: socket, replies: [event, reply])
    let human = try Trust.dynctlBinary(["--socket", socket, "list"], in: directory)
    #expect(human.status == 0, "\(human.error)")
    #expect(!Self.hasUnsafe(human.output), "\(human.output.debugDescription)")
    #expect(
      human.output == """
        x\\u001B[2J done: o\\u202Ek\\u009B
        SESSION        CONTENT  CLOCK     STATE
        a\\u202Eb       t\\u0085  manual    at rest
        \\u001B[31mred  scene    realtime  running, 7 missed ticks

        """)
    let json = try Trust.dynctlBinary(["--socket", socket, "-j", "list"], in: directory)
    #expect(json.status == 0, "\(json.error)")
    #expect(!Self.hasUnsafe(json.output), "\(json.output.debugDescription)")
    let lines = json.output.split(separator: "\n").map(String.init)
    try #require(lines.count == 2)
    // The same JSON values as the daemon's lines, with the escapes.
    for (printed, sent) in zip(lines, [event, reply]) {
      let a = try JSONSerialization.jsonObject(with: Data(printed.utf8)) as? NSDictionary
      let b = try JSONSerialization.jsonObject(with: Data(sent.utf8)) as? NSDictionary
      #expect(a != nil && a == b, "\(printed)")
    }
    #expect(lines[0] == #"{"ev":"done","session":"x\u001b[2J","outcome":"o\u202Ek\u009B"}"#)
    _ = daemon
  }
}
