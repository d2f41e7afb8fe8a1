/// What Android's `getevent -lt` prints (toolbox/getevent.c): one event a line,
/// `[   SECONDS.MICROS] ` then, when several devices were watched, `/dev/input/eventN: `, then the
/// type, code and value — as labels (`EV_ABS`, `ABS_MT_POSITION_X`; `DOWN`/`UP` for keys) with
/// `-l`, else as hexadecimal (`0003 0035 000001f4`), a value being 32 bits in two's complement.
/// The lines `getevent -lp` prints (`add device N: PATH`, indented device details, and for each
/// axis `LABEL : value V, min A, max B, fuzz F, flat L, resolution R`) may come first, in the
/// same file, or be given apart (`StrokeUnits.deviceInfo`): they give the touch axes' ranges,
/// which Android maps onto the screen (`StrokeUnits.screen`). With several devices, the one read
/// is the first that reports a position.
enum GeteventLog {
  static func read(_ text: String, units: StrokeUnits) throws(StrokeReadError) -> Stroke {
    let lines = TextLines(text: text)
    var info = DeviceInfo()
    if let apart = units.deviceInfo {
      for (number, line) in TextLines(text: apart).numbered where !line.trimmingSpaces.isEmpty {
        guard try info.take(line, line: number) else {
          throw StrokeReadError(
            line: number, "expected a line of `getevent -lp` in the device info, found '\(line)'")
        }
      }
    }
    var events: [String: [EvdevEvent]] = [:]
    var positioned: String?
    for (number, line) in lines.numbered where !line.trimmingSpaces.isEmpty {
      if line.hasPrefix("[") {
        let (device, event) = try Self.event(line, line: number)
        events[device, default: []].append(event)
        if positioned == nil, event.type == EvdevCode.absType,
          [EvdevCode.mtPositionX, EvdevCode.absX].contains(event.code)
        {
          positioned = device
        }
      } else if try !info.take(line, line: number) {
        throw StrokeReadError(
          line: number,
          "expected a `getevent -lt` event line ([SECONDS] TYPE CODE VALUE), found '\(line)'")
      }
    }
    let device = positioned ?? events.keys.sorted().first ?? ""
    let touch = try EvdevTouch(events[device] ?? [], lastLine: lines.last)
    guard let screen = units.screen else {
      throw StrokeReadError(
        line: lines.last,
        "expected the screen's size and density (adb shell wm size, wm density) to convert "
          + "getevent's units: give them (dynctl: --screen-size W,H --screen-density DPI)")
    }
    let names =
      touch.multiTouch ? ("ABS_MT_POSITION_X", "ABS_MT_POSITION_Y") : ("ABS_X", "ABS_Y")
    let x = try info.axis(names.0, device: device, lastLine: lines.last)
    let y = try info.axis(names.1, device: device, lastLine: lines.last)
    let ppi = units.pointsPerInch
    let samples = touch.samples.map {
      StrokeSample(
        t: $0.t,
        x: x.points($0.x, pixels: screen.width, density: screen.density, pointsPerInch: ppi),
        y: y.points($0.y, pixels: screen.height, density: screen.density, pointsPerInch: ppi))
    }
    return try checkedStroke(samples, lines)
  }

  /// `[   SECONDS] [DEVICE: ]TYPE CODE VALUE`.
  private static func event(_ text: Substring, line: Int) throws(StrokeReadError) -> (
    String, EvdevEvent
  ) {
    let expected = "expected [SECONDS] TYPE CODE VALUE, found '\(text)'"
    guard let close = text.firstIndex(of: "]") else { throw StrokeReadError(line: line, expected) }
    let t = try finiteNumber(
      text[text.index(after: text.startIndex)..<close], "the time", line: line)
    var words = text[text.index(after: close)...].split(whereSeparator: { $0 == " " || $0 == "\t" })
    var device = ""
    if let first = words.first, first.hasSuffix(":") {
      device = String(first.dropLast())
      words.removeFirst()
    }
    guard words.count == 3, let type = Labels.type(words[0]), let code = Labels.code(words[1])
    else {
      throw StrokeReadError(line: line, expected)
    }
    guard let value = Labels.value(words[2]) else {
      throw StrokeReadError(
        line: line, "expected a hexadecimal value (or DOWN, UP, REPEAT), found '\(words[2])'")
    }
    return (device, EvdevEvent(t: t, type: type, code: code, value: value, line: line))
  }

  /// The axes `getevent -lp` lists, per device (`add device N: PATH` names it; none: "").
  private struct DeviceInfo {
    var device = ""
    var axes: [String: [String: AxisRange]] = [:]
    /// The devices in the order they were listed.
    var order: [String] = []

    /// Takes a line of `getevent -lp` (or the device lines `getevent -lt` prints when it watches
    /// every device); false when it is none.
    mutating func take(_ text: Substring, line: Int) throws(StrokeReadError) -> Bool {
      if text.hasPrefix("could not ") { return true }  // getevent's errors, adb shell merges them
      if text.hasPrefix("add device ") || text.hasPrefix("remove device ") {
        if let colon = text.firstIndex(of: ":") {
          device = String(text[text.index(after: colon)...].trimmingSpaces)
        }
        return true
      }
      guard text.first == " " || text.first == "\t" else { return false }
      guard let range = text.firstRange(of: ": value ") else { return true }
      let label = text[..<range.lowerBound].split(separator: " ").last.map(String.init) ?? ""
      var fields: [String: Int] = [:]
      for part in text[range.upperBound...].split(separator: ",") {
        let words = part.split(separator: " ")
        if words.count == 2, let number = Int(words[1]) { fields[String(words[0])] = number }
      }
      guard let min = fields["min"], let max = fields["max"] else {
        throw StrokeReadError(
          line: line,
          "expected an axis as `getevent -lp` prints it (LABEL : value V, min A, "
            + "max B, fuzz F, flat L, resolution R), found '\(text.trimmingSpaces)'")
      }
      let name = Labels.absNames[Int(label, radix: 16) ?? -1] ?? label
      if axes[device] == nil { order.append(device) }
      axes[device, default: [:]][name] = AxisRange(
        minimum: min, maximum: max, resolution: fields["resolution"] ?? 0, line: line)
      return true
    }

    func axis(_ name: String, device: String, lastLine: Int) throws(StrokeReadError) -> AxisRange {
      // Events of one device (`getevent -lt DEVICE`) name none: the first device listed with
      // the axis is taken.
      let listed = device.isEmpty ? order.lazy.compactMap { axes[$0]?[name] }.first : nil
      guard let axis = axes[device]?[name] ?? listed else {
        throw StrokeReadError(
          line: lastLine,
          "expected the range of \(name) (the `getevent -lp` lines of \(device.isEmpty ? "the device" : device), "
            + "in the file before its events or given apart: dynctl --device-info FILE), found none"
        )
      }
      guard axis.maximum > axis.minimum else {
        throw StrokeReadError(line: axis.line, "expected \(name)'s max above its min")
      }
      return axis
    }
  }

  /// The labels of `getevent -l` the reader needs, and the hexadecimal of `getevent` without it.
  private enum Labels {
    static let types = ["EV_SYN": 0, "EV_KEY": 1, "EV_ABS": 3]
    static let absNames = [
      EvdevCode.absX: "ABS_X", EvdevCode.absY: "ABS_Y", EvdevCode.mtSlot: "ABS_MT_SLOT",
      EvdevCode.mtPositionX: "ABS_MT_POSITION_X", EvdevCode.mtPositionY: "ABS_MT_POSITION_Y",
      EvdevCode.mtTrackingID: "ABS_MT_TRACKING_ID",
    ]
    static let codes = [
      "SYN_REPORT": EvdevCode.synReport, "SYN_MT_REPORT": EvdevCode.synMTReport,
      "BTN_TOUCH": EvdevCode.btnTouch,
    ].merging(absNames.map { ($0.value, $0.key) }) { a, _ in a }

    /// A type: a label, or 4 hexadecimal digits; an unknown label is -1 (its events are ignored).
    static func type(_ word: Substring) -> Int? {
      if let hex = Int(word, radix: 16), word.count == 4 { return hex }
      return word.hasPrefix("EV_") ? types[String(word)] ?? -1 : nil
    }

    static func code(_ word: Substring) -> Int? {
      if let hex = Int(word, radix: 16), word.count == 4 { return hex }
      return word.contains("_") ? codes[String(word)] ?? -1 : nil
    }

    /// 8 hexadecimal digits (two's complement), or a key's DOWN, UP, REPEAT; any other label
    /// (e.g. MT_TOOL_FINGER) is 0, as no value the reader uses has one.
    static func value(_ word: Substring) -> Int? {
      if word.count == 8, let bits = UInt32(word, radix: 16) { return Int(Int32(bitPattern: bits)) }
      switch word {
      case "DOWN": return 1
      case "UP": return 0
      case "REPEAT": return 2
      default: return word.contains("_") ? 0 : nil
      }
    }
  }
}
