import Foundation
import Testing

/// `dynctl render --html` embeds every trace as JSON in a `<script type="application/json">`
/// element: no name a trace can hold (a session, an item, the trace's file) may change how the
/// page parses. HTML, script openers and comment openers (`<!--<script>` puts the parser in its
/// script-escape mode, where a later `</script>` no longer ends the element) must come back as
/// they were written.
@Suite("dynctl render: names cannot change how the page parses")
struct RenderNameSafetyTests {
  static let hostileNames = [
    "<b>bold</b>", "<script>", "</script>", "<!--", "<!--<script>", "a&amp;b>c",
    "line\u{2028}separator\u{2029}paragraph", "<!--<script>x</script>-->",
  ]

  /// A trace of one session named `name` whose items are named by `items`.
  static func trace(session name: String, items: [String]) throws -> String {
    func quoted(_ text: String) throws -> String {
      String(
        decoding: try JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed),
        as: UTF8.self)
    }
    let states = try items.enumerated().map { index, item in
      #"{"id":\#(try quoted(item)),"center":[\#(40 + 30 * index),100],"angle":0,"#
        + #""velocity":[0,0],"angular_velocity":0,"size":[20,20]}"#
    }
    return """
      {"trace":1,"source":"session","session":\(try quoted(name))}
      {"ok":true,"session":\(try quoted(name)),"items":[\(states.joined(separator: ","))]}

      """
  }

  /// The text of the `<script … id="ID">` element of `page`, between its tags.
  static func scriptElement(_ id: String, of page: String) -> Substring? {
    guard let open = page.range(of: "id=\"\(id)\">") else { return nil }
    guard let close = page.range(of: "</script>", range: open.upperBound..<page.endIndex) else {
      return nil
    }
    return page[open.upperBound..<close.lowerBound]
  }

  @Test("every name comes back from the page's embedded JSON as written, nothing raw in it")
  func hostileNamesRoundTrip() throws {
    let directory = NSTemporaryDirectory() + "dynctl-render-names-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var paths: [String] = []
    for (index, name) in Self.hostileNames.enumerated() {
      // The file's name is shown too: it is embedded as the trace's `name`.
      let file = "\(directory)/\(index)\(name.replacingOccurrences(of: "/", with: "|")).jsonl"
      try Self.trace(session: name, items: Self.hostileNames).write(
        toFile: file, atomically: true, encoding: .utf8)
      paths.append(file)
    }
    let page = "\(directory)/page.html"
    let result = runDynctl(["render"] + paths + ["--html", page])
    #expect(result.status == 0, "\(result.error)")
    let html = try String(contentsOfFile: page, encoding: .utf8)

    // Each embedded element holds no character that the HTML parser could act on.
    for id in ["dynd-traces", "dynd-options"] {
      let embedded = try #require(Self.scriptElement(id, of: html), "no element \(id)")
      let raw = ["<", ">", "&", "\u{2028}", "\u{2029}"].filter { embedded.contains($0) }
      #expect(
        raw.isEmpty,
        "\(id) holds raw \(raw.map { $0.unicodeScalars.first!.escaped(asASCII: true) })")
    }
    // And every script element of the page ends where it should: nothing was swallowed.
    let opened = html.components(separatedBy: "<script").count - 1
    let closed = html.components(separatedBy: "</script>").count - 1
    #expect(opened == closed, "\(opened) script elements opened, \(closed) closed")

    let embedded = try #require(Self.scriptElement("dynd-traces", of: html))
    let traces = try #require(
      try JSONSerialization.jsonObject(with: Data(embedded.utf8)) as? [[String: Any]])
    #expect(traces.count == Self.hostileNames.count)
    for (index, trace) in traces.enumerated() {
      let name = Self.hostileNames[index]
      #expect(trace["name"] as? String == URL(fileURLWithPath: paths[index]).lastPathComponent)
      let lines = try #require(trace["lines"] as? [[String: Any]])
      #expect(lines.first?["session"] as? String == name)
      let items = try #require(lines.last?["items"] as? [[String: Any]])
      #expect(items.map { $0["id"] as? String } == Self.hostileNames)
    }
  }
}
