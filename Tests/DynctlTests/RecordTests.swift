import Foundation
import Testing

/// `dynctl record` of a transition, a scene (--scene) and a running session (--session), and
/// the usage errors of `record` and `render`.
@Suite("dynctl record and render")
struct RecordTests {
  /// A box dropped on the floor: it comes to rest within a second or two.
  static let scene = """
    {"items":[{"id":"box","center":[160,100],"size":[80,80]}],\
    "behaviors":[{"type":"gravity","items":["box"]},\
    {"type":"collision","items":["box"],"reference_bounds":true}]}
    """

  static let usage: [(arguments: [String], message: String)] = [
    (
      ["-o", "t"], "give a transition, --scene FILE, or --session NAME (to join a running session)"
    ),
    (
      ["lock-screen", "--scene", "s.json", "-o", "t"],
      "give either a transition or --scene, not both"
    ),
    (["lock-screen", "-o", "t"], "give exactly one of --pan, --samples, --tap, --swipe"),
    (
      ["--scene", "s.json", "--pan", "1,1:2,2", "-o", "t"],
      "--pan is a transition's gesture: a scene is recorded as it moves by itself"
    ),
    (
      ["--scene", "s.json", "--param", "gravity=2", "-o", "t"],
      "--param applies to transitions, not to scenes"
    ),
    (
      ["--session", "live", "--tap", "1,1", "-o", "t"],
      "--tap needs a transition: --session NAME alone joins a running session and sends it no "
        + "gestures (send them with `dynctl gesture NAME …`)"
    ),
    (
      ["--session", "live", "--param", "gravity=2", "-o", "t"],
      "--param applies to a transition being opened: --session NAME alone joins a session as it is"
    ),
    (
      ["--session", "live", "--max-seconds", "0", "-o", "t"],
      "--max-seconds 0: must be between 0 and 600"
    ),
    (
      ["--scene", "s.json", "--duration", "1", "-o", "t"],
      "--duration belongs to a pan: give --pan too"
    ),
  ]

  @Test("record refuses bad combinations with one sentence and exit status 64")
  func usageErrors() throws {
    for (arguments, message) in Self.usage {
      let result = runDynctl(["record"] + arguments)
      #expect(result.status == 64, "\(arguments): \(result.error)")
      #expect(result.error.hasPrefix("Error: \(message)\n"), "\(arguments): \(result.error)")
    }
    for (arguments, message) in [
      (
        ["a.jsonl", "--overlay", "--html", "o.html"], "--overlay compares traces: give two or more"
      ),
      (
        ["a.jsonl", "b.jsonl", "--overlay", "--svg", "o.svg"],
        "--overlay draws the HTML page: give --html OUT too"
      ),
    ] {
      let result = runDynctl(["render"] + arguments)
      #expect(result.status == 64, "\(arguments): \(result.error)")
      #expect(result.error.hasPrefix("Error: \(message)\n"), "\(arguments): \(result.error)")
    }
  }

  @Test("render refuses a trace it cannot draw with the reason and exit status 65 (66 unread)")
  func badTraces() throws {
    let directory = NSTemporaryDirectory() + "dynctl-render-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let open =
      #"{"ok":true,"session":"s","items":[{"id":"a","center":[1,1],"angle":0,"#
      + #""velocity":[0,0],"angular_velocity":0,"size":[10,10]}]}"#
    let cases: [(text: String, reason: String)] = [
      ("{\"trace\":1}\nnot json\n", "line 2 is not JSON: invalid JSON at column 2: null expected"),
      ("{\"trace\":2}\n", "not a dynctl trace (no {\"trace\":1} header)"),
      ("{\"trace\":1}\n", "the trace has no open or get reply with item sizes"),
      (
        "{\"trace\":1,\"bounds\":[0,0,0,568]}\n\(open)\n",
        "the header's bounds must be [x, y, w, h] with w and h above 0"
      ),
      (
        "{\"trace\":1,\"bounds\":[0,0,320]}\n\(open)\n",
        "the header's bounds must be [x, y, w, h] with w and h above 0"
      ),
      (
        "{\"trace\":1}\n\(open.replacingOccurrences(of: "[10,10]", with: "[0,10]"))\n",
        "item 'a' has no size (width and height above 0)"
      ),
    ]
    for (index, (text, reason)) in cases.enumerated() {
      let path = "\(directory)/t\(index).jsonl"
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      let result = runDynctl(["render", path, "--svg", path + ".svg"])
      #expect(result.status == 65, "\(text): \(result.error)")
      #expect(result.error == "dynctl: \(path): \(reason)\n", "\(text)")
    }
    let missing = runDynctl(["render", directory + "/none.jsonl", "--html", "x.html"])
    #expect(missing.status == 66)
    #expect(
      missing.error == "dynctl: cannot read \(directory)/none.jsonl: No such file or directory\n")
  }

  /// The trace's lines, parsed.
  static func lines(_ path: String) throws -> [[String: Any]] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
    }
  }

  @Test("record --scene steps the scene until it rests; render takes the trace")
  func scene() throws {
    let daemon = try PrivateDaemon()
    defer { daemon.stop() }
    let trace = daemon.directory + "/scene.jsonl"
    let result = daemon.dynctl([
      "record", "--scene", Self.scene, "--session", "drop", "-o", trace,
    ])
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output.hasSuffix(" frames (at rest) to \(trace)\n"), "\(result.output)")
    let lines = try Self.lines(trace)
    #expect(lines[0]["source"] as? String == "scene")
    #expect(lines[0]["scene"] as? String == "inline")
    #expect(lines[0]["session"] as? String == "drop")
    #expect(
      lines.last?["ev"] as? String == "pause" || lines.dropLast().last?["ev"] as? String == "pause")
    let ops = lines.compactMap { ($0["sent"] as? [String: Any])?["op"] as? String }
    #expect(Set(ops) == ["open", "debug", "step"], "\(ops)")
    let render = daemon.dynctl([
      "render", trace, "--html", trace + ".html", "--svg", trace + ".svg",
    ])
    #expect(render.status == 0, "\(render.error)")
    #expect(render.error.isEmpty, "\(render.error)")
    // Overlaid with a lock screen, and with --svg: both said on standard error, written anyway.
    let lock = daemon.directory + "/lock.jsonl"
    let recorded = daemon.dynctl(["record", "lock-screen", "--tap", "300,550", "-o", lock])
    #expect(recorded.status == 0, "\(recorded.error)")
    let mixed = daemon.dynctl([
      "render", trace, lock, "--overlay", "--html", trace + ".html", "--svg", trace + ".svg",
    ])
    #expect(mixed.status == 0, "\(mixed.error)")
    #expect(
      mixed.error.contains(
        "dynctl: warning: --svg draws only the first trace (\(trace)); --overlay applies to the "
          + "HTML page"), "\(mixed.error)")
    #expect(
      mixed.error.contains(
        "dynctl: warning: --overlay compares different transitions (scene, lock-screen)"),
      "\(mixed.error)")
    // Still moving when --max-seconds ends: recorded all the same, exit 0.
    let short = daemon.dynctl([
      "record", "--scene", Self.scene, "--max-seconds", "0.1", "-o", trace,
    ])
    #expect(short.status == 0, "\(short.error)")
    #expect(
      short.output.contains("recorded 6 frames (still moving after 0.1 s)"), "\(short.output)")
  }

  @Test("record --session joins a session, sends it nothing, and stops at its outcome")
  func joined() throws {
    let daemon = try PrivateDaemon()
    defer { daemon.stop() }
    #expect(
      daemon.dynctl(["open", "lock-screen", "--session", "L", "--clock", "manual"]).status == 0)
    let trace = daemon.directory + "/joined.jsonl"
    let recorder = BackgroundDynctl(
      ["record", "--session", "L", "--max-seconds", "20", "-o", trace],
      environment: ["DYND_SOCKET": daemon.socket])
    // Its first line: it got the session, listed it and turned the debug stream on.
    try recorder.waitForFirstLine()
    let gesture = daemon.dynctl([
      "gesture", "L", "--from", "160,500", "--to", "160,380", "--duration", "0.2",
      "--release-velocity", "0,-1400",
    ])
    #expect(gesture.status == 0, "\(gesture.error)")
    #expect(daemon.dynctl(["step", "L", "--count", "120"]).status == 0)
    let recorded = try recorder.finish()
    #expect(recorded.status == 0, "\(recorded.error)")
    let lines = try Self.lines(trace)
    #expect(lines[0]["source"] as? String == "session")
    #expect(lines[0]["transition"] as? String == "lock-screen")
    let ops = lines.compactMap { ($0["sent"] as? [String: Any])?["op"] as? String }
    #expect(ops == ["get", "list", "hello", "debug"])
    #expect(lines.last?["outcome"] as? String == "opened")
    #expect(lines.contains { $0["ev"] as? String == "handoff" })

    // Nothing moves: the trace is written, exit 1 says why.
    let idle = daemon.dynctl(["record", "--session", "L", "--max-seconds", "0.3", "-o", trace])
    #expect(idle.status == 1)
    #expect(
      idle.output == "recording L: watching it for up to 0.3 s\n"
        + "recorded 0 frames (0.3 s passed) to \(trace)\n", "\(idle.output)")
    #expect(
      idle.error == "dynctl: no frame from L before 0.3 s passed: it did not move while recorded\n")
    #expect(
      try Self.lines(trace).count == 9, "header, get, list, hello and debug with their replies")
    let missing = daemon.dynctl(["record", "--session", "M", "-o", trace])
    #expect(missing.status == 65)
    #expect(missing.error.contains("unknown_session: no session is named 'M'"), "\(missing.error)")
  }

  /// A scene opened by someone else, with an ellipse and a path, recorded by joining it: the
  /// trace's `get` reply carries the shapes, and the SVG draws them so.
  @Test("record --session keeps a joined scene's shapes; render draws the ellipse round")
  func joinedShapes() throws {
    let daemon = try PrivateDaemon()
    defer { daemon.stop() }
    let scene =
      #"{"bounds":[320,240],"items":[{"id":"ball","center":[80,60],"size":[40,30],"#
      + #""shape":"ellipse"},{"id":"tri","center":[200,60],"size":[40,40],"shape":"path","#
      + #""path":[[0,-20],[20,20],[-20,20]]},{"id":"box","center":[140,150],"size":[30,20]}],"#
      + #""behaviors":[{"type":"gravity","items":["ball","tri","box"]},"#
      + #"{"type":"collision","items":["ball","tri","box"],"reference_bounds":true}]}"#
    let opened = daemon.dynctl([
      "open", "--scene", scene, "--session", "P", "--clock", "manual",
    ])
    #expect(opened.status == 0, "\(opened.error)")
    let got = daemon.dynctl(["get", "P"]).output
    #expect(got.contains("size 40×30  ellipse\n"), "\(got)")
    #expect(got.contains("size 40×40  path (0, -20) (20, 20) (-20, 20)\n"), "\(got)")
    #expect(got.contains("size 30×20\n"), "\(got)")
    let trace = daemon.directory + "/shapes.jsonl"
    let recorder = BackgroundDynctl(
      ["record", "--session", "P", "--max-seconds", "20", "-o", trace],
      environment: ["DYND_SOCKET": daemon.socket])
    try recorder.waitForFirstLine()
    #expect(daemon.dynctl(["step", "P", "--count", "600"]).status == 0)
    let recorded = try recorder.finish()
    #expect(recorded.status == 0, "\(recorded.error)")
    let lines = try Self.lines(trace)
    let items = try #require(lines.first { $0["ok"] != nil && $0["items"] != nil }?["items"])
    let shapes = (items as? [[String: Any]] ?? []).map { $0["shape"] as? String ?? "-" }
    #expect(shapes == ["ellipse", "path", "-"], "the get reply's shapes")
    let svg = trace + ".svg"
    let render = daemon.dynctl(["render", trace, "--svg", svg])
    #expect(render.status == 0, "\(render.error)")
    let drawn = try String(contentsOfFile: svg, encoding: .utf8)
    #expect(drawn.contains(#"<ellipse data-item="ball" cx="0" cy="0" rx="20" ry="15" "#))
    #expect(drawn.contains(#"<polygon data-item="tri" points="0,-20 20,20 -20,20" "#))
    #expect(drawn.contains(#"<rect data-item="box" x="-15" y="-10" width="30" height="20" "#))
    #expect(!drawn.contains(#"<rect data-item="ball""#))
  }
}
