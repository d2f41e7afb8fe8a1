import JSON
import PageScripts
import Wire

/// One self-contained HTML file (no network, no external script) that replays traces on a
/// canvas at true speed — play/pause, scrubbing, 0.25×–2× speed, overlay toggles — under a
/// header of what was recorded (outcome, handoff numbers, parameters, gesture), with a legend
/// beside the stage and plots of one item's position and velocity beneath, marking the gesture,
/// the handoff, each contact and the outcome. With `overlay` every trace shares one stage and
/// one set of axes, one colour per trace. The traces are embedded as JSON in
/// `<script type="application/json" id="dynd-traces">`: `[{"name": …, "lines": [every line of
/// the trace]}]`, and the options in `id="dynd-options"`: `{"overlay": …, "offscreen": …}`.
public enum HTMLRenderer {
  public struct Options {
    /// Every trace on one stage and one set of axes.
    public var overlay = false
    /// Frame everything the items reach, not only the bounds.
    public var offscreen = false

    public init(overlay: Bool = false, offscreen: Bool = false) {
      self.overlay = overlay
      self.offscreen = offscreen
    }
  }

  public static func render(_ traces: [Trace], options: Options = Options()) -> String {
    let data = JSONValue.array(
      traces.map { trace in
        .object([
          JSONMember(name: "name", value: .string(baseName(trace.path))),
          JSONMember(name: "lines", value: .array(trace.lines)),
        ])
      })
    let settings = JSONValue.object([
      JSONMember(name: "overlay", value: .bool(options.overlay)),
      JSONMember(name: "offscreen", value: .bool(options.offscreen)),
    ])
    // "</" would end the script element early.
    let embedded = data.jsonText.replacingAll("</", with: "<\\/")
    let scripts = [
      PageBasics.source, StageScript.source, TraceModelScript.source, PlotScript.source,
      HandoffWords.source, SummaryScript.source,
      PlayerScript.source,
    ]
    return """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8"><title>dynd traces</title>
      <style>\(style)</style></head>
      <body><h1>dynd traces</h1>
      <p class="intro">Each recording: what was sent and what came of it, a replay of the stage \
      (outside the bounds is off screen, faded), and one item's position and velocity over \
      time. The legends say what each colour and mark means.</p>
      <div id="players"></div>
      <script type="application/json" id="dynd-options">\(settings.jsonText)</script>
      <script type="application/json" id="dynd-traces">\(embedded)</script>
      \(scripts.map { "<script>\($0)</script>" }.joined(separator: "\n"))
      </body></html>

      """
  }

  /// The last component of `path`: what the pages call a file.
  public static func baseName(_ path: String) -> String {
    String(path.split(separator: "/").last ?? Substring(path))
  }

  static let style = """
    body{font:14px -apple-system,system-ui,sans-serif;margin:16px;color:#212529;max-width:1100px}
    h2{margin:8px 0}h3{font-size:13px;margin:6px 0}.intro{color:#495057;max-width:760px}
    section{margin-bottom:40px;border-top:1px solid #dee2e6;padding-top:8px}
    canvas.stage,canvas.plot{border:1px solid #ced4da;display:block;margin:6px 0}
    .controls{display:flex;gap:10px;align-items:center;flex-wrap:wrap;margin:8px 0}
    .controls input[type=range]{width:360px}.t{font-variant-numeric:tabular-nums;width:70px}
    .view{display:flex;gap:18px;align-items:flex-start;flex-wrap:wrap}.legend{max-width:440px}
    .caption{font-size:12px;color:#495057;max-width:380px}
    table.summary{border-collapse:collapse;font-size:13px;margin:6px 0}
    table.summary th{text-align:left;padding:3px 10px 3px 0;vertical-align:top;color:#495057}
    table.summary td{padding:3px 14px 3px 0;vertical-align:top}td.differs{font-weight:600}
    .swatch{display:inline-block;width:12px;height:12px;margin-right:5px;vertical-align:-1px}
    .plot-legend{list-style:none;padding:0;margin:2px 0;font-size:12px;display:flex;gap:16px;
    flex-wrap:wrap}.plot-legend li{display:flex;align-items:center;gap:5px}
    .key{display:inline-block;width:22px;height:0;border-top:2px solid}.key.dashed{border-top-style:dashed}
    .key.dotted{border-top-style:dotted}.key.tick{width:0;height:10px;border-top:0;border-left:2px solid}
    .key.band{height:12px;border:0}
    """
}

extension String {
  func replacingAll(_ target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
