import JSON
import PageScripts
import Wire

/// A static picture of a trace, sized to what it holds (the view box starts at 0,0 and ends
/// where the last element does): a header of what was recorded and what came of it, a
/// filmstrip of the stage at evenly spaced times, then one strip per moving item of its
/// position over time on a common time axis (`SVGStrips`) — stacked, so that a wave (wave-pop's
/// rows following the dragged one later and later) shows as a slope across the strips — and a
/// legend. Trajectories drawn on the stage would not show it: the cells move on one line.
public enum SVGRenderer {
  static let palette = ["#e8590c", "#1c7ed6", "#2f9e44", "#ae3ec9", "#f08c00", "#0c8599"]
  static let margin = 16.0

  public static func render(_ trace: Trace, offscreen: Bool = false, keyFrames: Int = 6) -> String {
    var body = ""
    var y = margin
    var width = 0.0
    // The header.
    for (index, line) in headerLines(trace).enumerated() {
      let bold = index == 0 ? " font-weight=\"bold\" font-size=\"14\"" : ""
      body += "<text class=\"header\" x=\"\(n(margin))\" y=\"\(n(y + 12))\"\(bold)>"
      body += "\(escape(line))</text>\n"
      width = max(width, Double(line.count) * (index == 0 ? 7.6 : 6.2))
      y += index == 0 ? 20 : 16
    }
    y += 8
    let strip = filmstrip(trace, offscreen: offscreen, count: keyFrames, top: y)
    body += strip.svg
    width = max(width, strip.width)
    y += strip.height + 14
    let strips = SVGStrips(trace: trace, minimumWidth: width, top: y, left: margin)
    body += strips.svg
    width = max(width, strips.width)
    y += strips.height
    let total = (w: (width + 2 * margin).rounded(.up), h: (y + margin).rounded(.up))
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(n(total.w)) \(n(total.h))" \
      width="\(n(total.w))" height="\(n(total.h))" font-family="sans-serif" font-size="11">
      <title>\(escape(trace.title)) — \(trace.frames.count) frames</title>
      <rect width="100%" height="100%" fill="#ffffff"/>
      \(body)</svg>

      """
  }

  /// What was recorded and what came of it, a line each.
  static func headerLines(_ trace: Trace) -> [String] {
    var lines = [
      "\(trace.title) — "
        + (trace.outcome.map { "\($0.word) at \(n($0.t - trace.startTime)) s" } ?? "no outcome")
    ]
    if let h = trace.handoff {
      // Why an estimated velocity is 0 or limited, as the HTML page says it (`HandoffWords`).
      let why = h.estimate.flatMap {
        HandoffWords.reasonSentence(
          $0.reason.rawValue, stillMilliseconds: $0.stillMilliseconds,
          gapMilliseconds: $0.gapMilliseconds)
      }
      lines.append(
        "handoff \(h.item): gesture_velocity \(pair(h.gesture)) pt/s"
          + (why.map { " (\($0))" } ?? "") + " → item_velocity "
          + "\(pair(h.itemVelocity)) pt/s, velocity_error \(n(h.velocityError)) pt/s")
    } else {
      lines.append("no handoff (no pan was released)")
    }
    switch trace.source {
    case "scene": lines.append("a scene: \(trace.sizes.count) items, no parameters")
    case "session" where trace.params.isEmpty && !trace.joinedWithParams:
      lines.append("parameters: not in the trace (the session was joined)")
    default:
      let set = trace.params.map { param in
        let declared = trace.paramTable.first { $0.name == param.name }
        return "\(param.name) = \(param.value)"
          + (declared.map {
            ($0.unit.isEmpty ? "" : " \($0.unit)") + " (default \($0.defaultValue))"
          }
            ?? "")
      }
      lines.append(
        set.isEmpty
          ? "parameters: all at their defaults"
          : "parameters: " + set.joined(separator: ", ") + "; the others at their defaults")
    }
    lines.append(
      "\(max(0, trace.frames.count - 1)) frames over \(n(trace.duration)) s, from "
        + HTMLRenderer.baseName(trace.path))
    return lines
  }

  /// The stage at `count` evenly spaced times, side by side, framed to the bounds with a margin
  /// (or all the items reach, `offscreen`) with what lies outside the bounds faded.
  static func filmstrip(_ trace: Trace, offscreen: Bool, count: Int, top: Double) -> (
    svg: String, width: Double, height: Double
  ) {
    let b = trace.bounds
    // The bounds and a margin (what enters or leaves shows, faded), or all the items reach.
    let pad = 0.06 * max(b.width, b.height)
    var view = (x0: b.x - pad, y0: b.y - pad, x1: b.x + b.width + pad, y1: b.y + b.height + pad)
    if offscreen {
      for frame in trace.frames {
        for item in frame.items {
          guard let size = trace.sizes.first(where: { $0.id == item.id }) else { continue }
          let r = max(size.width, size.height) / 2
          view = (
            min(view.x0, item.x - r), min(view.y0, item.y - r), max(view.x1, item.x + r),
            max(view.y1, item.y + r)
          )
        }
      }
    }
    let (vw, vh) = (view.x1 - view.x0, view.y1 - view.y0)
    let scale = min(0.3, 170 / vh, 120 / vw)
    let (tw, th, gap) = (vw * scale, vh * scale, 12.0)
    let frames = trace.frames
    guard !frames.isEmpty else { return ("", 0, 0) }
    var svg = "<g class=\"filmstrip\">\n"
    let dragged = trace.handoff?.item
    for k in 0..<count {
      let t = trace.startTime + trace.duration * Double(k) / Double(max(1, count - 1))
      let frame = frames.last { $0.t <= t + 1e-9 } ?? frames[0]
      let left = margin + Double(k) * (tw + gap)
      // A nested viewport: it clips what lies beyond the view.
      svg += "<svg class=\"key-frame\" data-t=\"\(n(frame.t - trace.startTime))\" "
      svg += "x=\"\(n(left))\" y=\"\(n(top))\" width=\"\(n(tw))\" height=\"\(n(th))\" "
      svg += "viewBox=\"\(n(view.x0)) \(n(view.y0)) \(n(vw)) \(n(vh))\">\n"
      svg += "<rect x=\"\(n(b.x))\" y=\"\(n(b.y))\" width=\"\(n(b.width))\" "
      svg += "height=\"\(n(b.height))\" fill=\"#f8f9fa\"/>\n"
      let order = trace.sizes.enumerated().sorted { a, c in
        let (da, dc) = (a.element.id == dragged, c.element.id == dragged)
        if da != dc { return dc }
        return a.element.width * a.element.height > c.element.width * c.element.height
      }
      for (index, size) in order {
        guard let f = frame.items.first(where: { $0.id == size.id }) else { continue }
        let alpha = size.width * size.height >= 0.5 * b.width * b.height ? 0.2 : 0.4
        svg += outline(size)
        svg += "fill=\"\(color(index))\" fill-opacity=\"\(n(alpha))\" stroke=\"\(color(index))\" "
        svg += "stroke-width=\"\(n((size.id == dragged ? 3.5 : 1.5) / scale))\" "
        svg += "transform=\"translate(\(n(f.x)) \(n(f.y))) rotate(\(n(f.angle * 180 / .pi)))\"/>\n"
      }
      // Off screen: faded, and the bounds drawn over it.
      svg +=
        "<path fill=\"#ffffff\" fill-opacity=\"0.62\" fill-rule=\"evenodd\" d=\"M\(n(view.x0)) "
      svg += "\(n(view.y0))h\(n(vw))v\(n(vh))h\(n(-vw))z M\(n(b.x)) \(n(b.y))h\(n(b.width))"
      svg += "v\(n(b.height))h\(n(-b.width))z\"/>\n"
      svg += "<rect x=\"\(n(b.x))\" y=\"\(n(b.y))\" width=\"\(n(b.width))\" "
      svg += "height=\"\(n(b.height))\" fill=\"none\" stroke=\"#343a40\" "
      svg += "stroke-width=\"\(n(1 / scale))\"/>\n</svg>\n"
      svg += "<text x=\"\(n(left))\" y=\"\(n(top + th + 13))\" fill=\"#495057\">"
      svg += "t \(n(frame.t - trace.startTime)) s</text>\n"
    }
    svg += "</g>\n"
    return (svg, Double(count) * (tw + gap) - gap, th + 16)
  }

  /// The start of the element that draws an item of `size` around the origin, by its shape: a
  /// rect, an ellipse or a polygon (its path, relative to the center), open for the paint.
  static func outline(_ size: Trace.Size) -> String {
    switch size.shape {
    case .rectangle:
      return "<rect data-item=\"\(escape(size.id))\" x=\"\(n(-size.width / 2))\" "
        + "y=\"\(n(-size.height / 2))\" width=\"\(n(size.width))\" height=\"\(n(size.height))\" "
    case .ellipse:
      return "<ellipse data-item=\"\(escape(size.id))\" cx=\"0\" cy=\"0\" "
        + "rx=\"\(n(size.width / 2))\" ry=\"\(n(size.height / 2))\" "
    case .path(let points):
      return "<polygon data-item=\"\(escape(size.id))\" points=\""
        + points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ") + "\" "
    }
  }

  static func color(_ index: Int) -> String { palette[index % palette.count] }

  static func pair(_ v: (Double, Double)) -> String { "(\(n(v.0)), \(n(v.1)))" }

  static func n(_ v: Double) -> String { JSONValue.number((v * 1000).rounded() / 1000).jsonText }

  /// XML text and attribute escaping.
  static func escape(_ text: String) -> String {
    var out = ""
    for c in text {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      default: out.append(c)
      }
    }
    return out
  }
}
