/// The SVG picture's position-over-time panel (see `SVGRenderer`): one strip per item that
/// moves, in scene order, its x or y (or both, y dashed) against a time axis shared by every
/// strip, on one value scale shared by every strip too, so that strips compare; the gesture,
/// the handoff, each contact and the outcome marked across them; ticks in seconds; a legend.
struct SVGStrips {
  private(set) var svg = ""
  private(set) var width = 0.0
  private(set) var height = 0.0

  static let nameWidth = 150.0
  /// Room right of the strips: for each strip's highest and lowest value when strips are tall
  /// enough to hold them (a few items), else a little margin.
  static func axisWidth(stripHeight: Double) -> Double { stripHeight >= 40 ? 50 : 16 }

  init(trace: Trace, minimumWidth: Double, top: Double, left: Double) {
    typealias R = SVGRenderer
    let n = R.n
    // What each item does: the coordinates that change by more than half a point.
    var moving: [(index: Int, id: String, coords: [Int], points: [(t: Double, p: [Double])])] = []
    var still: [String] = []
    for (index, size) in trace.sizes.enumerated() {
      let points = trace.frames.compactMap { frame in
        frame.items.first { $0.id == size.id }.map { (frame.t - trace.startTime, [$0.x, $0.y]) }
      }
      let coords = (0..<2).filter { c in
        let values = points.map { $0.1[c] }
        return (values.max() ?? 0) - (values.min() ?? 0) > 0.5
      }
      if coords.isEmpty {
        still.append(size.id)
      } else {
        moving.append((index, size.id, coords, points))
      }
    }
    let stripHeight = min(110, max(24, 320 / Double(max(1, moving.count))))
    let plotLeft = left + Self.nameWidth
    let axisWidth = Self.axisWidth(stripHeight: stripHeight)
    let plotWidth = max(420, minimumWidth - Self.nameWidth - axisWidth)
    let tmax = max(trace.duration * 1.04, 0.05)
    let X = { (t: Double) in plotLeft + t / tmax * plotWidth }
    var y = top
    svg += "<g class=\"strips\">\n<text x=\"\(n(left))\" y=\"\(n(y + 12))\" font-weight=\"bold\">"
    svg += "Position over time, one strip per moving item</text>\n"
    for (row, line) in [
      "Each strip spans its item's own range (left: the coordinate, start → end, in pt).",
      "A dot marks when the item is half-way; joined across strips, a wave shows as a slant.",
    ].enumerated() {
      svg += "<text x=\"\(n(left))\" y=\"\(n(y + 27 + Double(row) * 14))\" fill=\"#495057\">"
      svg += "\(line)</text>\n"
    }
    y += 52
    let stripsTop = y
    var halfWay: [(x: Double, y: Double)?] = []
    for m in moving {
      let color = R.color(m.index)
      svg += "<g class=\"item\" data-item=\"\(R.escape(m.id))\">\n"
      svg += "<rect x=\"\(n(plotLeft))\" y=\"\(n(y))\" width=\"\(n(plotWidth))\" "
      svg += "height=\"\(n(stripHeight))\" fill=\"#f8f9fa\" stroke=\"#dee2e6\"/>\n"
      let axes = m.coords.map { $0 == 0 ? "x" : "y" }.joined(separator: ", ")
      let first = m.points.first.map { p in m.coords.map { n(p.p[$0]) } } ?? []
      let last = m.points.last.map { p in m.coords.map { n(p.p[$0]) } } ?? []
      svg += "<rect x=\"\(n(left))\" y=\"\(n(y + stripHeight / 2 - 5))\" width=\"10\" "
      svg += "height=\"10\" fill=\"\(color)\"/>\n"
      svg += "<text x=\"\(n(left + 14))\" y=\"\(n(y + stripHeight / 2 + 4))\">"
      svg +=
        "\(R.escape(m.id)) \(axes) \(first.joined(separator: ","))→\(last.joined(separator: ","))"
      svg += "</text>\n"
      var half: (x: Double, y: Double)?
      for c in m.coords {
        let values = m.points.map { $0.p[c] }
        let (lo, hi) = (values.min() ?? 0, values.max() ?? 1)
        let Y = { (v: Double) in y + 2 + (stripHeight - 4) * (1 - (v - lo) / max(hi - lo, 1e-9)) }
        if axisWidth > 16, c == m.coords[0] {
          for value in [hi, lo] {
            svg += "<text class=\"tick\" x=\"\(n(plotLeft + plotWidth + 4))\" "
            svg += "y=\"\(n(Y(value) + 4))\" fill=\"#495057\">\(n(value))</text>\n"
          }
        }
        let coordinates = m.points.map { p in "\(n(X(p.t))),\(n(Y(p.p[c])))" }
        svg += "<polyline class=\"trajectory\" data-axis=\"\(c == 0 ? "x" : "y")\" fill=\"none\" "
        svg += "stroke=\"\(color)\" stroke-width=\"1.5\""
        svg += c == 1 && m.coords.count == 2 ? " stroke-dasharray=\"5 3\" " : " "
        svg += "points=\"\(coordinates.joined(separator: " "))\"/>\n"
        // Half-way from the start to the end (none when the item came back where it started).
        if c == m.coords[0], let start = values.first, let end = values.last, abs(end - start) > 1,
          let p = m.points.first(where: { abs($0.p[c] - start) >= abs(end - start) / 2 })
        {
          half = (X(p.t), Y(p.p[c]))
          svg += "<circle class=\"half-way\" cx=\"\(n(X(p.t)))\" cy=\"\(n(Y(p.p[c])))\" r=\"2.5\" "
          svg += "fill=\"#212529\"/>\n"
        }
      }
      halfWay.append(half)
      for contact in trace.contacts where contact.item == m.id {
        let cx = X(contact.t - trace.startTime)
        svg +=
          "<line class=\"contact\" x1=\"\(n(cx))\" x2=\"\(n(cx))\" y1=\"\(n(y + stripHeight - 7))\" "
        svg += "y2=\"\(n(y + stripHeight))\" stroke=\"#495057\" stroke-width=\"1.5\"/>\n"
      }
      svg += "</g>\n"
      y += stripHeight + 4
    }
    let stripsBottom = y - 4
    // The wave front: the half-way dots of neighbouring strips joined.
    for (a, b) in zip(halfWay, halfWay.dropFirst()) {
      guard let a, let b else { continue }
      svg += "<line class=\"wave\" x1=\"\(n(a.x))\" y1=\"\(n(a.y))\" x2=\"\(n(b.x))\" "
      svg += "y2=\"\(n(b.y))\" stroke=\"#212529\" stroke-width=\"1\"/>\n"
    }
    svg += marks(trace, X: X, top: stripsTop, bottom: stripsBottom)
    svg += timeAxis(X: X, tmax: tmax, y: stripsBottom, plotLeft: plotLeft, plotWidth: plotWidth)
    y = stripsBottom + 34
    if !still.isEmpty {
      svg += "<text class=\"still\" x=\"\(n(left))\" y=\"\(n(y + 10))\" fill=\"#495057\">"
      svg += "Not moving: \(R.escape(still.joined(separator: ", ")))</text>\n"
      y += 18
    }
    let (legend, legendHeight) = Self.legend(
      trace, twoAxes: moving.contains { $0.coords.count == 2 },
      halfWay: halfWay.contains { $0 != nil },
      left: left, top: y, width: plotWidth)
    svg += legend + "</g>\n"
    width = Self.nameWidth + plotWidth + axisWidth
    height = y + legendHeight - top
  }

  /// The finger-down band, the handoff (dashed) and the outcome across every strip.
  private func marks(_ trace: Trace, X: (Double) -> Double, top: Double, bottom: Double) -> String {
    let n = SVGRenderer.n
    var out = ""
    if let span = trace.gestureSpan {
      let (a, b) = (X(span.began - trace.startTime), X(span.ended - trace.startTime))
      out += "<rect class=\"gesture\" x=\"\(n(a))\" y=\"\(n(top))\" width=\"\(n(max(2, b - a)))\" "
      out += "height=\"\(n(bottom - top))\" fill=\"#868e96\" fill-opacity=\"0.18\"/>\n"
    }
    if let h = trace.handoff {
      let x = X(h.t - trace.startTime)
      out += "<line class=\"handoff\" x1=\"\(n(x))\" x2=\"\(n(x))\" y1=\"\(n(top))\" "
      out +=
        "y2=\"\(n(bottom))\" stroke=\"#e03131\" stroke-dasharray=\"5 3\" stroke-width=\"1.5\"/>\n"
    }
    if let o = trace.outcome {
      let x = X(o.t - trace.startTime)
      out += "<line class=\"done\" x1=\"\(n(x))\" x2=\"\(n(x))\" y1=\"\(n(top))\" "
      out += "y2=\"\(n(bottom))\" stroke=\"#2b8a3e\" stroke-width=\"2\"/>\n"
    }
    return out
  }

  private func timeAxis(
    X: (Double) -> Double, tmax: Double, y: Double, plotLeft: Double, plotWidth: Double
  ) -> String {
    let n = SVGRenderer.n
    var out =
      "<g class=\"time-axis\">\n<line x1=\"\(n(plotLeft))\" x2=\"\(n(plotLeft + plotWidth))\" "
    out += "y1=\"\(n(y))\" y2=\"\(n(y))\" stroke=\"#868e96\"/>\n"
    let step = Self.tickStep(tmax, count: 8)
    var t = 0.0
    while t <= tmax + 1e-9 {
      out +=
        "<line x1=\"\(n(X(t)))\" x2=\"\(n(X(t)))\" y1=\"\(n(y))\" y2=\"\(n(y + 4))\" stroke=\"#868e96\"/>\n"
      out +=
        "<text x=\"\(n(X(t)))\" y=\"\(n(y + 15))\" text-anchor=\"middle\" fill=\"#495057\">\(n(t))</text>\n"
      t = ((t + step) / step).rounded() * step
    }
    out += "<text x=\"\(n(plotLeft + plotWidth))\" y=\"\(n(y + 28))\" text-anchor=\"end\" "
    out += "fill=\"#495057\">time (s)</text>\n</g>\n"
    return out
  }

  /// Steps of 1, 2 or 5 × 10^k giving about `count` ticks over `span`.
  static func tickStep(_ span: Double, count: Double) -> Double {
    let raw = span / count
    let power = Double.pow10(raw)
    let f = raw / power
    return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * power
  }

  private static func legend(
    _ trace: Trace, twoAxes: Bool, halfWay: Bool, left: Double, top: Double, width: Double
  ) -> (String, Double) {
    let n = SVGRenderer.n
    var entries: [(String, String)] = [
      (
        "<line x1=\"0\" x2=\"22\" y1=\"0\" y2=\"0\" stroke=\"#343a40\" stroke-width=\"1.5\"/>",
        "the coordinate that moves"
      )
    ]
    if twoAxes {
      entries.append(
        (
          "<line x1=\"0\" x2=\"22\" y1=\"0\" y2=\"0\" stroke=\"#343a40\" stroke-width=\"1.5\" "
            + "stroke-dasharray=\"5 3\"/>", "y, when x moves too"
        ))
    }
    if halfWay {
      entries.append(
        (
          "<line x1=\"0\" x2=\"22\" y1=\"4\" y2=\"-4\" stroke=\"#212529\"/><circle cx=\"0\" "
            + "cy=\"4\" r=\"2.5\" fill=\"#212529\"/><circle cx=\"22\" cy=\"-4\" r=\"2.5\" "
            + "fill=\"#212529\"/>", "half-way, joined across strips"
        ))
    }
    if trace.gestureSpan != nil {
      entries.append(
        (
          "<rect x=\"0\" y=\"-6\" width=\"22\" height=\"12\" fill=\"#868e96\" fill-opacity=\"0.3\"/>",
          "finger down"
        ))
    }
    entries.append(
      (
        "<line x1=\"11\" x2=\"11\" y1=\"-6\" y2=\"6\" stroke=\"#e03131\" stroke-dasharray=\"3 2\" "
          + "stroke-width=\"1.5\"/>", "handoff"
      ))
    entries.append(
      (
        "<line x1=\"11\" x2=\"11\" y1=\"-6\" y2=\"6\" stroke=\"#495057\" stroke-width=\"1.5\"/>",
        "contact"
      ))
    entries.append(
      (
        "<line x1=\"11\" x2=\"11\" y1=\"-6\" y2=\"6\" stroke=\"#2b8a3e\" stroke-width=\"2\"/>",
        "done" + (trace.outcome.map { ": \($0.word)" } ?? "")
      ))
    entries.append(
      (
        "<rect x=\"0\" y=\"-6\" width=\"22\" height=\"12\" fill=\"#e8590c\" fill-opacity=\"0.4\" "
          + "stroke=\"#e8590c\"/>", "item (filmstrip; thick outline: dragged, on top)"
      ))
    var out = "<g class=\"legend\">\n"
    var (x, y) = (left, top + 8)
    for (mark, text) in entries {
      let w = 30 + Double(text.count) * 6.2 + 16
      if x + w > left + nameWidth + width, x > left {
        x = left
        y += 18
      }
      out += "<g transform=\"translate(\(n(x)) \(n(y)))\">\(mark)<text x=\"28\" y=\"4\">"
      out += "\(SVGRenderer.escape(text))</text></g>\n"
      x += w
    }
    return (out + "</g>\n", y - top + 10)
  }
}

extension Double {
  /// The power of ten at or below `value` (1 for a value that is not positive).
  static func pow10(_ value: Double) -> Double {
    guard value > 0, value.isFinite else { return 1 }
    var p = 1.0
    while p > value { p /= 10 }
    while p * 10 <= value { p *= 10 }
    return p
  }
}
