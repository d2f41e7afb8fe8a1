import Foundation
import Testing

/// `dynctl check`: documents checked offline, every error at once, exit 65.
@Suite("dynctl check")
struct CheckCommandTests {
  static let good =
    #"{"transition":"card","parameters":[{"name":"inset","default":20,"min":0,"max":100}],"#
    + #""scene":{"items":[{"id":"card","center":["=mid_x","=mid_y"],"#
    + #""size":["=max(width - 2 * inset, 1)","=height / 3"]}]}}"#

  @Test("a good document: ok, exit 0")
  func good() {
    let result = runDynctl(["check", "-"], standardInput: Self.good)
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == "-: ok: transition 'card', 1 parameter\n")
  }

  @Test("a bad document: a line per error with its pointer, exit 65")
  func bad() {
    let twoErrors = Self.good.replacingFirst("=mid_x", with: "=mid_z")
      .replacingFirst(#"{"transition""#, with: #"{"colour":1,"transition""#)
    let result = runDynctl(["check", "-"], standardInput: twoErrors)
    #expect(result.status == 65)
    let lines = result.output.split(separator: "\n").map(String.init)
    #expect(lines.count == 2, "\(lines)")
    #expect(lines.first?.hasPrefix("-: /colour: unknown field") == true)
    #expect(lines.last?.hasPrefix("-: /scene/items/0/center/0: unknown name 'mid_z'") == true)
    #expect(result.error == "dynctl: 1 document: has errors (above)\n")
  }

  @Test("a file that cannot be read: exit 66")
  func unreadable() {
    #expect(runDynctl(["check", "/nonexistent/doc.json"]).status == 66)
  }
}

extension String {
  fileprivate func replacingFirst(_ old: String, with new: String) -> String {
    guard let range = range(of: old) else { return self }
    return replacingCharacters(in: range, with: new)
  }
}
