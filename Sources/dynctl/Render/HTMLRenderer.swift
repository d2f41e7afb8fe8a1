import Wire

/// One self-contained HTML file (no network, no external script) that replays traces on a
/// canvas at true speed — play/pause, scrubbing, 0.25×–2× speed, overlay toggles — with plots of
/// the dragged item's position and velocity beneath, marking the gesture, the handoff and each
/// contact. The traces are embedded as JSON in `<script type="application/json"
/// id="dynd-traces">`: `[{"name": …, "lines": [every line of the trace]}]`.
enum HTMLRenderer {
  static func render(_ traces: [Trace]) -> String {
    let data = JSONValue.array(
      traces.map { trace in
        .object([
          JSONMember(name: "name", value: .string(baseName(trace.path))),
          JSONMember(name: "lines", value: .array(trace.lines)),
        ])
      })
    // "</" would end the script element early.
    let embedded = data.jsonText.replacingAll("</", with: "<\\/")
    return """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8"><title>dynd traces</title>
      <style>\(style)</style></head>
      <body><h1>dynd traces</h1><div id="players"></div>
      <script type="application/json" id="dynd-traces">\(embedded)</script>
      <script>\(PlayerScript.source)</script>
      </body></html>

      """
  }

  static func baseName(_ path: String) -> String {
    String(path.split(separator: "/").last ?? Substring(path))
  }

  static let style = """
    body{font:14px -apple-system,system-ui,sans-serif;margin:16px;color:#212529}
    section{margin-bottom:32px}canvas{border:1px solid #ced4da;display:block;margin:6px 0}
    .controls{display:flex;gap:10px;align-items:center;flex-wrap:wrap}
    .controls input[type=range]{width:320px}.t{font-variant-numeric:tabular-nums;width:70px}
    """
}

extension String {
  func replacingAll(_ target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
