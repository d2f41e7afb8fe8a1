import Wire

/// A static picture of a trace: the bounds with each item's trajectory (its center over time)
/// and where it ends, and beneath, a filmstrip of key frames: the scene at evenly spaced times.
enum SVGRenderer {
  static let palette = ["#e8590c", "#1c7ed6", "#2f9e44", "#ae3ec9", "#f08c00", "#0c8599"]

  static func render(_ trace: Trace, keyFrames: Int = 6) -> String {
    let b = trace.bounds
    let margin = 40.0
    // The view spans the bounds and everywhere an item went (items also start or end off
    // screen), plus the filmstrip beneath.
    let xs = trace.frames.flatMap { $0.items.map(\.x) } + [b.x, b.x + b.width]
    let ys = trace.frames.flatMap { $0.items.map(\.y) } + [b.y, b.y + b.height]
    let extra = trace.sizes.map { max($0.width, $0.height) / 2 }.max() ?? 0
    let minX = min(b.x, xs.min()! - extra) - margin
    let minY = min(b.y, ys.min()! - extra) - margin
    let maxX = max(b.x + b.width, xs.max()! + extra) + margin
    let maxY = max(b.y + b.height, ys.max()! + extra) + margin
    let thumbScale = 0.25
    let thumbWidth = b.width * thumbScale
    let stripLeft = minX + margin
    let stripTop = maxY
    let width = max(maxX - minX, Double(keyFrames) * (thumbWidth + 12) + 2 * margin)
    let height = maxY - minY + b.height * thumbScale + 40
    var svg = """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="\(n(minX)) \(n(minY)) \(n(width)) \
      \(n(height))" width="\(n(width))" height="\(n(height))" font-family="sans-serif" \
      font-size="10">
      <title>\(escape(trace.transition)) — \(trace.frames.count) frames</title>
      <defs><clipPath id="bounds"><rect x="\(n(b.x))" y="\(n(b.y))" width="\(n(b.width))" \
      height="\(n(b.height))"/></clipPath></defs>
      <rect x="\(n(b.x))" y="\(n(b.y))" width="\(n(b.width))" height="\(n(b.height))" \
      fill="#f8f9fa" stroke="#868e96"/>

      """
    let frames = trace.frames
    let picks =
      frames.isEmpty
      ? [] : (0..<keyFrames).map { frames[(frames.count - 1) * $0 / max(1, keyFrames - 1)] }
    // The trajectories, and each item where it ends.
    for (index, size) in trace.sizes.enumerated() {
      let color = palette[index % palette.count]
      let points = frames.compactMap { frame in frame.items.first { $0.id == size.id } }
      svg += "<g class=\"item\" data-item=\"\(escape(size.id))\">\n"
      if let last = points.last {
        svg += outline(size, last, color: color, opacity: 1)
        svg += "<polyline class=\"trajectory\" fill=\"none\" stroke=\"\(color)\" "
        svg += "stroke-width=\"1.5\" points=\""
        svg += points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ") + "\"/>\n"
        svg += "<text x=\"\(n(last.x))\" y=\"\(n(last.y))\" fill=\"\(color)\">"
        svg += "\(escape(size.id))</text>\n"
      }
      svg += "</g>\n"
    }
    // The filmstrip: the whole scene at each key time, a quarter of the size.
    for (k, frame) in picks.enumerated() {
      let left = stripLeft + Double(k) * (thumbWidth + 12)
      svg += "<g class=\"key-frame\" data-t=\"\(n(frame.t))\" transform=\"translate(\(n(left)) "
      svg += "\(n(stripTop))) scale(\(n(thumbScale))) translate(\(n(-b.x)) \(n(-b.y)))\">\n"
      svg += "<rect x=\"\(n(b.x))\" y=\"\(n(b.y))\" width=\"\(n(b.width))\" "
      svg += "height=\"\(n(b.height))\" fill=\"#f8f9fa\" stroke=\"#868e96\" stroke-width=\"4\"/>\n"
      svg += "<g clip-path=\"url(#bounds)\">\n"
      for (index, size) in trace.sizes.enumerated() {
        guard let f = frame.items.first(where: { $0.id == size.id }) else { continue }
        svg += outline(size, f, color: palette[index % palette.count], opacity: 1, fill: true)
      }
      svg += "</g></g>\n<text x=\"\(n(left))\" y=\"\(n(stripTop + b.height * thumbScale + 14))\" "
      svg += "fill=\"#495057\">t \(n(frame.t)) s</text>\n"
    }
    return svg + "</svg>\n"
  }

  /// An item's rectangle at a frame.
  private static func outline(
    _ size: (id: String, width: Double, height: Double), _ f: Trace.ItemFrame, color: String,
    opacity: Double, fill: Bool = false
  ) -> String {
    var out = "<rect x=\"\(n(-size.width / 2))\" y=\"\(n(-size.height / 2))\" "
    out += "width=\"\(n(size.width))\" height=\"\(n(size.height))\" "
    out += fill ? "fill=\"\(color)\" fill-opacity=\"0.8\" " : "fill=\"none\" "
    out += "stroke=\"\(color)\" stroke-opacity=\"\(n(opacity))\" "
    out += "transform=\"translate(\(n(f.x)) \(n(f.y))) rotate(\(n(f.angle * 180 / .pi)))\"/>\n"
    return out
  }

  static func n(_ v: Double) -> String { JSONValue.number(v).jsonText }

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
