import JSON
import Primitives
import Wire

/// The readable forms of the daemon's replies and events.
///
/// Everything `--json` shows is shown: numbers as the daemon wrote them (`number`), names with
/// their control and bidirectional formatting characters as `\uXXXX` (`TerminalText`). Only an
/// item's angle and angular velocity (in a frame) and a handoff's `velocity_error` are left out
/// while they are 0, and `hello`'s parameter tables unless asked for (`dynctl hello
/// --parameters`: they are some 70 lines). The `debug` geometry (fields with their samples and
/// groups included), and an event this dynctl does not know, are printed as the line the daemon
/// wrote.
enum HumanFormat {
  static func event(_ message: Message) -> String {
    guard case .event(let event) = message.content else { return message.text }
    let session = event.session.map { "\($0) " } ?? ""
    switch event {
    case .frame(let frame):
      var dropped: [String] = []
      if frame.dropped > 0 { dropped.append("\(frame.dropped) frames dropped") }
      if frame.droppedContacts > 0 { dropped.append("\(frame.droppedContacts) contacts dropped") }
      return "\(session)frame \(number(Double(frame.seq))) t \(number(frame.t)): "
        + frame.items.map(moving).joined(separator: ", ") + valueList(frame.values)
        + (dropped.isEmpty ? "" : " (" + dropped.joined(separator: ", ") + ")")
    case .contact(let contact):
      let partner: String
      switch contact.partner {
      case .item(let other): partner = "item \(other)"
      case .boundary(let boundary?): partner = "boundary \(boundary)"
      case .boundary(nil): partner = "the reference bounds"
      }
      let point = contact.point.map { " at \(pair($0))" } ?? ""
      return "\(session)contact \(contact.phase.rawValue): \(text(contact.item)) and \(partner)"
        + point
    case .pause(_, let t): return "\(session)pause at t \(number(t)): at rest"
    case .resume(_, let t): return "\(session)resume at t \(number(t))"
    case .handoff(let handoff):
      let constraints = handoff.constraints.map { constraint in
        switch constraint {
        case .rail(let axis): "a rail along \(pair(axis))"
        case .speedLimit(let maxSpeed): "the speed limit \(number(maxSpeed)) pt/s"
        case .anchored: constraint.kind
        }
      }
      return "\(session)handoff \(text(handoff.item)): gesture velocity "
        + "\(pair(handoff.gestureVelocity)), item velocity \(pair(handoff.itemVelocity))"
        + (constraints.isEmpty ? "" : " (changed by " + constraints.joined(separator: ", ") + ")")
        + (handoff.velocityError > 0 ? ", velocity_error \(number(handoff.velocityError))" : "")
        + (releaseVelocitySentence(handoff.estimate).map { "; \($0)" } ?? "")
        + (handoff.projection.map { "; " + restingSentence($0, handoff) } ?? "")
    case .done(_, let outcome, let values):
      return "\(session)done: \(text(outcome))" + valueList(values)
    case .closed(_, let reason): return "\(session)closed (\(text(reason)))"
    case .shutdown(let reason): return "the daemon is shutting down (\(text(reason ?? "?")))"
    case .slow(_, let t, let frame, let budget):
      return "\(session)slow at t \(number(t)): a frame took \(number(frame)) ms of its "
        + "\(number(budget)) ms period; frames are skipped until it keeps up"
    case .onTime(_, let t): return "\(session)on time again at t \(number(t))"
    case .contactLimit(_, let t, let limit):
      return "\(session)contact limit at t \(number(t)): \(limit) contacts at once; further "
        + "overlapping pairs pass through each other"
    case .debug: return message.text
    case .action(let action):
      return "\(session)action \(text(action.name)) from behavior \(text(action.behavior)) at t "
        + "\(number(action.t))" + (action.item.map { " (item \(text($0)))" } ?? "")
    }
  }

  /// `screen (160, 500) velocity (0, -1400)`, with `angle` and `angular` when not 0.
  static func moving(_ state: ItemState) -> String {
    var line = "\(text(state.id)) \(pair(state.center))"
    if state.angle != 0 { line += " angle \(number(state.angle))" }
    line += " velocity \(pair(state.velocity))"
    if state.angularVelocity != 0 { line += " angular \(number(state.angularVelocity))" }
    return line
  }

  /// `; background_alpha 0.5` for a transition's values, nothing when it has none.
  static func valueList(_ values: [NamedValue]) -> String {
    values.isEmpty
      ? "" : "; " + values.map { "\(text($0.name)) \(number($0.value))" }.joined(separator: ", ")
  }

  /// The fields of an `ok` reply, one line each; items and sessions one line per entry.
  static func reply(_ body: ReplyBody) -> [String] {
    switch body {
    case .empty:
      return []
    case .hello(let proto, let server, let version, let transitions, _):
      return [
        "protocol \(number(Double(proto)))", "server \(text(server))", "version \(text(version))",
        "transitions: " + transitions.map(text).joined(separator: ", "),
      ]
    case .open(let session, let items):
      return ["session \(text(session))"] + items.map { item($0, sized: true) }
    case .step(let t, let running):
      return [time(t, running: running)]
    case .get(let t, let running, let items, let details):
      return [time(t, running: running)] + detailLines(details)
        + items.map { item($0, sized: true) }
    case .watch(let t, let running, let outcome, let items):
      return [time(t, running: running) + (outcome.map { ", done: \(text($0))" } ?? "")]
        + items.map { item($0, sized: false) }
    case .input(let taken):
      return [
        taken
          ? "taken: the transition acts on it"
          : "ignored: the transition does nothing with it there"
      ]
    case .list(let page):
      return sessions(page.sessions)
        + (page.next.map { ["more sessions follow (from \($0))"] } ?? [])
    case .addBehavior(let behavior):
      return ["behavior \(text(behavior))"]
    case .debug(let geometry):
      return ["debug \(TerminalText.safe(geometry.jsonText))"]
    case .behaviors(let behaviors):
      return behaviors.isEmpty ? ["no behaviors"] : behaviors.map(behavior)
    case .itemsInRect(let items):
      return [items.isEmpty ? "no items" : "items " + items.map(text).joined(separator: ", ")]
    }
  }

  /// `t 0.95 s, at rest`
  static func time(_ t: Double, running: Bool) -> String {
    "t \(number(t)) s, \(running ? "running" : "at rest")"
  }

  /// `value` to the 6 decimals the wire gives a spring's values.
  private static func rounded(_ value: Double) -> Double { (value * 1e6).rounded() / 1e6 }

  /// `bounds (0, 0) 320×568`, `params gravity 4, elasticity 0.4, …` and `group pair: a, b`, when
  /// the reply has them.
  static func detailLines(_ details: SessionDetails) -> [String] {
    var lines: [String] = []
    if let b = details.bounds {
      lines.append(
        "bounds (\(number(b.minX)), \(number(b.minY))) \(number(b.size.width))×\(number(b.size.height))"
      )
    }
    // The fields of the spring or decay in force are shown once, as that set, below.
    var motionFields: Set<String> = []
    if details.motion?.spring != nil {
      motionFields.formUnion(SpringField.allCases.map(\.rawValue))
    }
    if details.motion?.decay != nil { motionFields.formUnion(DecayField.allCases.map(\.rawValue)) }
    if let params = details.params, !params.isEmpty {
      let values = params.entries.filter { !motionFields.contains($0.name) }.map {
        entry -> String in
        switch entry.value {
        case .number(let v): "\(text(entry.name)) \(number(v))"
        case .bool(let flag): "\(text(entry.name)) \(flag)"
        case .string(let word): "\(text(entry.name)) \(text(word))"
        }
      }
      lines.append("params " + values.joined(separator: ", "))
    }
    if let (set, p) = details.motion?.spring {
      let values = Dictionary(
        p.reportedValues + p.origamiValues, uniquingKeysWith: { first, _ in first })
      let given = (set.requiredFields + set.optionalFields).map { field in
        "\(field.rawValue) \(number(rounded(values[field.rawValue] ?? .nan)))"
      }
      let derived = [
        ("mass", p.mass), ("stiffness", p.stiffness), ("damping", p.damping),
        ("damping ratio", p.dampingRatio), ("response", p.response), ("bounce", p.bounce),
      ].map { "\($0.0) \(number(rounded($0.1)))" }
      lines.append(
        "spring in force: " + given.joined(separator: ", ") + " ("
          + derived.joined(separator: ", ") + ")")
    }
    if let decay = details.motion?.decay {
      let (field, value) = decay.parameter
      lines.append("decay in force: \(field.rawValue) \(number(value))")
    }
    for group in details.groups {
      lines.append("group \(text(group.id)): " + group.items.map(text).joined(separator: ", "))
    }
    return lines
  }

  /// `screen  center (160, 284)  angle 0  velocity (0, 0)  angular 0  size 320×568`, then
  /// `  ellipse` or `  path (0, -20) (20, 20) (-20, 20)` when the reply gives a shape (`get`).
  /// How many items an `open` reply lists one by one in `play` and `handoff` (without `--items`).
  static let listedItems = 4

  /// An `open` reply as `play` and `handoff` show it: each item when there are at most
  /// `listedItems`, else one line with their count and their first and last names (wave-pop's
  /// twenty cells would bury the handoff).
  static func openSummary(session: String, items: [ItemState]) -> [String] {
    guard items.count > listedItems else { return reply(.open(session: session, items: items)) }
    let names = items.map { text($0.id) }
    return [
      "session \(text(session))",
      "  \(items.count) items: \(names.prefix(3).joined(separator: ", ")), …, \(names.last ?? "") "
        + "(--items lists each)",
    ]
  }

  static func item(_ state: ItemState, sized: Bool) -> String {
    var line = "  \(text(state.id))  center \(pair(state.center))"
    line += "  angle \(number(state.angle))  velocity \(pair(state.velocity))"
    line += "  angular \(number(state.angularVelocity))"
    if sized { line += "  size \(number(state.size.width))×\(number(state.size.height))" }
    switch state.shape {
    case .rectangle: break
    case .ellipse: line += "  ellipse"
    case .path(let points): line += "  path " + points.map(pair).joined(separator: " ")
    }
    return line
  }

  static func sessions(_ list: [SessionSummary]) -> [String] {
    guard !list.isEmpty else { return ["no sessions"] }
    let rows = list.map { entry in
      [
        text(entry.session), entry.transition.map(TerminalText.safe) ?? "scene",
        entry.clock.rawValue,
        (entry.running ? "running" : "at rest")
          + ((entry.missedTicks ?? 0) > 0 ? ", \(entry.missedTicks!) missed ticks" : ""),
      ]
    }
    let table = [["SESSION", "CONTENT", "CLOCK", "STATE"]] + rows
    let widths = (0..<4).map { column in table.map { $0[column].count }.max() ?? 0 }
    return table.map { row in
      row.enumerated().map { column, cell in
        column == 3 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
      }.joined(separator: "  ")
    }
  }

  /// `(x, y)`.
  /// Where a release takes the item: "stops at (x, y) (decay friction 1.5)" when a decay
  /// receives it, "projected to (x, y), detent large" for a sheet.
  static func restingSentence(_ projection: Point, _ handoff: Handoff) -> String {
    if let decay = handoff.decay {
      let (field, value) = (decay.parameter.field.rawValue, decay.parameter.value)
      return "stops at \(pair(projection)) (decay \(field) \(number(value)))"
    }
    return "projected to \(pair(projection))"
      + (handoff.detent.map { ", detent \(text($0))" } ?? "")
  }

  static func pair(_ point: Point) -> String { "(\(number(point.x)), \(number(point.y)))" }
  static func pair(_ vector: Vector) -> String { "(\(number(vector.dx)), \(number(vector.dy)))" }

  /// A number as the daemon wrote it (which has at most 6 decimals, so it reads back the same).
  static func number(_ value: Double) -> String { JSONValue.number(value).jsonText }

  /// A name or word from the daemon, made safe to print (so that table columns are measured as
  /// printed).
  static func text(_ value: String) -> String { TerminalText.safe(value) }
}
