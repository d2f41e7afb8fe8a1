/// The YAML `libinput record` writes, read as its man page lays it out (libinput-record(1),
/// FILE FORMAT), not as YAML in general: the first device of `devices:`, its
/// `absinfo:` entries `CODE: [min, max, fuzz, flat, resolution]` and its `events:`, each
/// `- evdev:` item a list of `- [sec, usec, type, code, value]` (comments after `#`). Other
/// keys and items (`hid`, `libinput`, `udev`, …) are skipped, as the format asks of parsers.
/// Positions become points with the axes' resolution (units per millimetre); an axis without
/// one (0: many touchscreens give none) is mapped onto the screen given in `units`, as the
/// compositor maps the touchscreen onto its output.
enum LibinputRecord {
  static func read(_ text: String, units: StrokeUnits) throws(StrokeReadError) -> Stroke {
    let lines = TextLines(text: text)
    var absinfo: [Int: AxisRange] = [:]
    var events: [EvdevEvent] = []
    var section = Section.header
    /// The indent of the `absinfo:` or `events:` key.
    var sectionIndent = 0
    var devices = 0
    var sawVersion = false
    var inEvdevItem = false
    for (number, raw) in lines.numbered {
      let line = raw.firstIndex(of: "#").map { raw[..<$0] } ?? raw
      let item = line.trimmingSpaces
      if item.isEmpty { continue }
      let indent = line.prefix { $0 == " " }.count
      if indent == 0, !item.hasPrefix("- ") {
        if item.hasPrefix("version:") {
          guard item.dropFirst("version:".count).trimmingSpaces == "1" else {
            throw StrokeReadError(line: number, "expected version: 1, found '\(item)'")
          }
          sawVersion = true
        }
        section = item == "devices:" ? .devices : .header
        continue
      }
      guard section != .header else { continue }
      // A section ends at a line no deeper than its key, but for a list item at the key's
      // indent (YAML lets a key's list start there, as libinput record writes `events:`).
      if section == .absinfo || section == .events,
        indent < sectionIndent || (indent == sectionIndent && !item.hasPrefix("- "))
      {
        section = .devices
      }
      if item.hasPrefix("- node:") {
        devices += 1
        if devices > 1 { break }  // the first device only
        section = .devices
        continue
      }
      switch item {
      case "absinfo:" where section == .devices, "events:" where section == .devices:
        section = item == "events:" ? .events : .absinfo
        sectionIndent = indent
      default:
        switch section {
        case .absinfo:
          let (code, values) = try codeAndList(item, line: number)
          absinfo[code] = AxisRange(
            minimum: values[0], maximum: values[1], resolution: values[4], line: number)
        case .events where item.hasPrefix("- ") && item.hasSuffix(":"):
          inEvdevItem = item == "- evdev:"
        case .events where inEvdevItem && item.hasPrefix("- ["):
          events.append(try event(item, line: number))
        default:
          break
        }
      }
    }
    guard sawVersion else {
      throw StrokeReadError(line: 1, "expected a libinput record file (version: 1), found none")
    }
    guard devices > 0 else {
      throw StrokeReadError(line: lines.last, "expected a device (devices: - node: …), found none")
    }
    let touch = try EvdevTouch(events, lastLine: lines.last)
    let (xCode, yCode) =
      touch.multiTouch
      ? (EvdevCode.mtPositionX, EvdevCode.mtPositionY) : (EvdevCode.absX, EvdevCode.absY)
    let x = try axis(absinfo, xCode, lastLine: lines.last, screen: units.screen)
    let y = try axis(absinfo, yCode, lastLine: lines.last, screen: units.screen)
    let samples = touch.samples.map {
      StrokeSample(
        t: $0.t, x: points($0.x, x, units, pixels: units.screen?.width),
        y: points($0.y, y, units, pixels: units.screen?.height))
    }
    return try checkedStroke(samples, lines)
  }

  /// `value` of `axis` in points: by its resolution, or, without one, mapped onto the screen
  /// (`pixels` along the axis; `axis(_:_:lastLine:screen:)` checked that there is one).
  private static func points(_ value: Int, _ axis: AxisRange, _ units: StrokeUnits, pixels: Double?)
    -> Double
  {
    guard axis.resolution <= 0, let pixels, let screen = units.screen else {
      return axis.points(value, pointsPerInch: units.pointsPerInch)
    }
    return axis.points(
      value, pixels: pixels, density: screen.density, pointsPerInch: units.pointsPerInch)
  }

  private enum Section { case header, devices, absinfo, events }

  private static let names = [
    EvdevCode.absX: "ABS_X", EvdevCode.absY: "ABS_Y", EvdevCode.mtPositionX: "ABS_MT_POSITION_X",
    EvdevCode.mtPositionY: "ABS_MT_POSITION_Y",
  ]

  /// The axis's absinfo, with a resolution to convert by or a screen to map onto.
  private static func axis(
    _ absinfo: [Int: AxisRange], _ code: Int, lastLine: Int, screen: MappedScreen?
  ) throws(StrokeReadError) -> AxisRange {
    let name = names[code] ?? "\(code)"
    guard let axis = absinfo[code] else {
      throw StrokeReadError(
        line: lastLine, "expected the absinfo of \(name) (code \(code)) in the device, found none")
    }
    guard axis.resolution > 0 || screen != nil else {
      throw StrokeReadError(
        line: axis.line,
        "expected a resolution (units per millimetre) for \(name), found \(axis.resolution): "
          + "without it the positions become points only on the screen the device maps onto "
          + "(dynctl: --screen-size W,H --screen-density DPI)")
    }
    guard axis.maximum > axis.minimum else {
      throw StrokeReadError(line: axis.line, "expected \(name)'s max above its min")
    }
    return axis
  }

  /// `CODE: [a, b, c, d, e]`.
  private static func codeAndList(_ item: Substring, line: Int) throws(StrokeReadError) -> (
    Int, [Int]
  ) {
    guard let colon = item.firstIndex(of: ":"), let code = Int(item[..<colon].trimmingSpaces)
    else {
      throw StrokeReadError(
        line: line,
        "expected an absinfo entry CODE: [min, max, fuzz, flat, resolution], found '\(item)'")
    }
    let values = try integers(item[item.index(after: colon)...].trimmingSpaces, line: line)
    return (code, values)
  }

  /// `- [sec, usec, type, code, value]`.
  private static func event(_ item: Substring, line: Int) throws(StrokeReadError) -> EvdevEvent {
    let v = try integers(item.dropFirst(2).trimmingSpaces, line: line)
    return EvdevEvent(
      t: Double(v[0]) + Double(v[1]) / 1_000_000, type: v[2], code: v[3], value: v[4], line: line)
  }

  /// Five integers in brackets.
  private static func integers(_ list: Substring, line: Int) throws(StrokeReadError) -> [Int] {
    let inner = list.hasPrefix("[") && list.hasSuffix("]") ? list.dropFirst().dropLast() : ""
    let values = inner.split(separator: ",").compactMap { Int($0.trimmingSpaces) }
    guard values.count == 5, inner.split(separator: ",").count == 5 else {
      throw StrokeReadError(line: line, "expected a list of five integers, found '\(list)'")
    }
    return values
  }
}
