import JSON
import PageScripts
import Wire

/// One self-contained HTML file (no network, no external script) that replays traces on a
/// canvas at true speed — play/pause, scrubbing, 0.25×–2× speed, overlay toggles, one time
/// display (the shown frame's) — with the stage and, beside it (under it on a narrow screen),
/// plots of one item's position and velocity, marking the gesture, the handoff, each contact
/// and the outcome, with the closed form of the spring or decay the release handed over drawn
/// behind the positions; under the plots a header of what was recorded (outcome, handoff
/// numbers, where the release goes and the motion's constants in every platform's terms,
/// parameters, gesture) and the stage's legend. A sheet's detents, the projection and the
/// landing are drawn on the stage. With `overlay` every trace shares one stage and
/// one set of axes, one colour per trace. The traces are embedded as JSON in
/// `<script type="application/json" id="dynd-traces">`: `[{"name": …, "lines": [every line of
/// the trace]}]`, and the options in `id="dynd-options"`: `{"overlay": …, "offscreen": …}`,
/// each written by `scriptSafeJSON`, so that no name in a trace can change how the page parses.
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
    let scripts = [
      PageBasics.source, StageScript.source, MotionScript.source, TraceModelScript.source,
      PlotScript.source,
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
      <script type="application/json" id="dynd-options">\(scriptSafeJSON(settings.jsonText))</script>
      <script type="application/json" id="dynd-traces">\(scriptSafeJSON(data.jsonText))</script>
      \(scripts.map { "<script>\($0)</script>" }.joined(separator: "\n"))
      </body></html>

      """
  }

  /// The last component of `path`: what the pages call a file.
  public static func baseName(_ path: String) -> String {
    String(path.split(separator: "/").last ?? Substring(path))
  }

  static let style = """
    body{font:14px -apple-system,system-ui,sans-serif;margin:10px 16px;color:#212529}
    h1{font-size:20px;margin:4px 0}h2{font-size:17px;margin:6px 0}h3{font-size:13px;margin:6px 0}
    .intro{color:#495057;max-width:760px;margin:4px 0 8px}
    section{margin-bottom:32px;border-top:1px solid #dee2e6;padding-top:6px}
    .player{display:grid;grid-template-columns:auto minmax(0,1fr);gap:8px 24px;align-items:start}
    .stage-box,.side-box{min-width:0}
    canvas.stage,canvas.plot{border:1px solid #ced4da;display:block;margin:6px 0}
    canvas.stage{max-width:100%;max-height:calc(100vh - 150px);width:auto;height:auto}
    .controls{display:flex;gap:10px;align-items:center;flex-wrap:wrap;margin:4px 0}
    .controls input[type=range]{width:220px;max-width:100%}.t{font-variant-numeric:tabular-nums;min-width:70px}
    .legend{max-width:640px}
    .caption{font-size:12px;color:#495057;max-width:380px}
    table.summary{border-collapse:collapse;font-size:13px;margin:6px 0}
    table.summary th{text-align:left;padding:3px 10px 3px 0;vertical-align:top;color:#495057}
    table.summary td{padding:3px 14px 3px 0;vertical-align:top;overflow-wrap:anywhere}td.differs{font-weight:600}
    table.summary code{user-select:all;background:#f1f3f5;padding:0 3px}
    .swatch{display:inline-block;width:12px;height:12px;margin-right:5px;vertical-align:-1px}
    .plot-legend{list-style:none;padding:0;margin:2px 0;font-size:12px;display:flex;gap:4px 16px;
    flex-wrap:wrap}.plot-legend li{display:flex;align-items:center;gap:5px}
    .key{display:inline-block;width:22px;height:0;border-top:2px solid}.key.dashed{border-top-style:dashed}
    .key.dotted{border-top-style:dotted}.key.tick{width:0;height:10px;border-top:0;border-left:2px solid}
    .key.band{height:12px;border:0}.key.wide{border-top-width:7px}
    @media (max-width:760px){.player{grid-template-columns:minmax(0,1fr)}}
    """
}
