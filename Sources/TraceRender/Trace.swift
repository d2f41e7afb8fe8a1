import JSON
import Primitives
import Wire

/// A trace written by `dynctl record`, read back: the header, the items with their sizes and
/// shapes, the frames and what happened (the gesture, the handoff, contacts, the outcome). Everything stays
/// in `lines` for the HTML player, which reads the same things in JavaScript.
public struct Trace {
  struct ItemFrame {
    let id: String
    let x: Double
    let y: Double
    let angle: Double
  }

  struct Frame {
    let t: Double
    let items: [ItemFrame]
  }

  struct Size {
    let id: String
    let width: Double
    let height: Double
    /// As the `get` reply gives it, or the `open` request's scene (a rectangle otherwise).
    let shape: ItemShape
  }

  /// The `handoff` event: the finger's release velocity and the item's.
  struct HandoffSummary {
    let t: Double
    let item: String
    let gesture: (Double, Double)
    let itemVelocity: (Double, Double)
    let velocityError: Double
    /// How the daemon estimated the finger's velocity; nil when it was given.
    let estimate: ReleaseEstimate?
  }

  let path: String
  /// Every line, parsed, in file order (the header first).
  let lines: [JSONValue]
  /// The transition recorded; nil for a scene (or a joined scene session).
  public let transition: String?
  /// How the trace was made: `transition` (the default of older traces), `scene` or `session`.
  let source: String
  let bounds: (x: Double, y: Double, width: Double, height: Double)
  /// Item ids, sizes and shapes, from the `open` (or `get`) reply.
  let sizes: [Size]
  /// The state of that reply (at its time), then every `frame`.
  let frames: [Frame]
  /// The parameters the session was opened with, as sent (`NAME=VALUE`); for a joined session,
  /// those its `get` reply reports away from their defaults.
  let params: [(name: String, value: String)]
  /// Whether a joined session's `get` reply reported its parameters (get's extension).
  let joinedWithParams: Bool
  /// The transition's parameter table from a `hello` reply (`parameters`), when the trace holds
  /// one: each parameter's default and unit.
  let paramTable: [(name: String, defaultValue: String, unit: String)]
  let handoff: HandoffSummary?
  let outcome: (word: String, t: Double)?
  /// The animator times the finger went down and came up (a pan), or tapped / swiped.
  let gestureSpan: (began: Double, ended: Double)?
  /// Contacts that began: when, and which item.
  let contacts: [(t: Double, item: String)]

  /// What the trace shows, in a few words: the transition or scene, and the session.
  var title: String {
    switch source {
    case "scene": "scene \(header["scene"]?.string ?? "") (session \(session))"
    case "session": "session \(session)" + (transition.map { " (\($0))" } ?? " (a scene)")
    default: transition ?? "?"
    }
  }

  var header: JSONValue { lines[0] }
  var session: String { header["session"]?.string ?? "?" }
  /// When the recording begins (the open or get reply's time): 0 unless a running session was
  /// joined.
  var startTime: Double { frames.first?.t ?? 0 }
  var duration: Double { (frames.last?.t ?? 0) - startTime }

  /// Reads and checks the text of the trace file at `path` (which names it in the pages);
  /// `InvalidTrace` says what is wrong with it.
  public init(path: String, text: String) throws(InvalidTrace) {
    self.path = path
    var parsed: [JSONValue] = []
    let parser = JSONParser()
    let texts = text.split(separator: "\n").filter { !$0.isEmpty }
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    where !line.isEmpty {
      do {
        parsed.append(try parser.parse(String(line)))
      } catch {
        throw InvalidTrace(reason: "line \(index + 1) is not JSON: \(error.message)")
      }
    }
    guard let header = parsed.first, header["trace"]?.number == 1 else {
      throw InvalidTrace(reason: "not a dynctl trace (no {\"trace\":1} header)")
    }
    lines = parsed
    transition = header["transition"]?.string
    source = header["source"]?.string ?? "transition"
    // Traces have always held the bounds; without them, the reference bounds.
    let b = header["bounds"].map { given in (0..<4).map { given[$0]?.number ?? .nan } }
    if let b, !(b.allSatisfy(\.isFinite) && b[2] > 0 && b[3] > 0 && header["bounds"]?[4] == nil) {
      throw InvalidTrace(
        reason: "the header's bounds must be [x, y, w, h] with w and h above 0")
    }
    bounds = b.map { ($0[0], $0[1], $0[2], $0[3]) } ?? (0, 0, 320, 568)
    var reader = Reader()
    let decoder = ServerMessageDecoder()
    for (index, line) in texts.enumerated() where index > 0 {
      if let sent = parsed[index]["sent"] {
        reader.sent(sent)
      } else if let message = try? decoder.decode(String(line)) {
        // A line this dynctl cannot read (a newer daemon's) is only replayed.
        reader.received(message)
      }
    }
    guard !reader.sizes.isEmpty else {
      throw InvalidTrace(reason: "the trace has no open or get reply with item sizes")
    }
    if let flat = reader.sizes.first(where: { !($0.width > 0 && $0.height > 0) }) {
      throw InvalidTrace(
        reason: "item '\(flat.id)' has no size (width and height above 0)")
    }
    sizes = reader.sizes
    frames = reader.frames
    var table: [(String, String, String)] = []
    if let transition,
      case .array(let entries)? = parsed.last(where: { $0["parameters"] != nil })?["parameters"]?[
        transition]
    {
      table = entries.compactMap { entry in
        entry["name"]?.string.map {
          ($0, entry["default"]?.jsonText ?? "?", entry["unit"]?.string ?? "")
        }
      }
    }
    paramTable = table
    if reader.params.isEmpty, let joined = reader.joinedParams {
      params = joined.filter { param in table.first { $0.0 == param.name }?.1 != param.value }
      joinedWithParams = true
    } else {
      params = reader.params
      joinedWithParams = false
    }
    handoff = reader.handoff
    outcome = reader.outcome
    gestureSpan = reader.began.map { ($0, reader.ended ?? reader.now) }
    contacts = reader.contacts
  }

  /// Collects what the lines say, in order; `now` is the animator time of the latest frame.
  private struct Reader {
    var sizes: [Size] = []
    var frames: [Frame] = []
    var params: [(name: String, value: String)] = []
    var joinedParams: [(name: String, value: String)]?
    var handoff: HandoffSummary?
    var outcome: (word: String, t: Double)?
    var began: Double?
    var ended: Double?
    var contacts: [(t: Double, item: String)] = []
    var now = 0.0
    /// The shapes of the items of an `open` request's scene, by id (its reply has none).
    var openedShapes: [String: ItemShape] = [:]

    mutating func sent(_ request: JSONValue) {
      switch request["op"]?.string {
      case "open":
        if case .object(let members)? = request["params"] {
          params = members.map { ($0.name, $0.value.jsonText) }
        }
        if case .array(let items)? = request["scene"]?["items"] {
          for item in items {
            if let id = item["id"]?.string { openedShapes[id] = Self.shape(item) }
          }
        }
      case "gesture":
        if request["phase"]?.string == "began" {
          began = now
          ended = nil
        } else if ["ended", "cancelled"].contains(request["phase"]?.string) {
          ended = now
        }
      case "tap", "swipe":
        began = now
        ended = now
      default:
        break
      }
    }

    mutating func received(_ message: ServerMessage) {
      switch message.replyBody {
      case .open(_, let items)? where sizes.isEmpty:
        start(items, at: 0)
      case .get(let t, _, let items, let details)? where sizes.isEmpty:
        start(items, at: t)
        // A joined session's parameters, as it was opened (daemons with get's extension).
        if let given = details.params {
          joinedParams = given.entries.map { ($0.name, Self.text($0.value)) }
        }
      default:
        break
      }
      guard case .event(let event) = message else { return }
      switch event {
      case .frame(let frame):
        now = frame.t
        frames.append(Frame(t: frame.t, items: frame.items.map(Self.itemFrame)))
      case .handoff(let h) where handoff == nil:
        handoff = HandoffSummary(
          t: now, item: h.item, gesture: (h.gestureVelocity.dx, h.gestureVelocity.dy),
          itemVelocity: (h.itemVelocity.dx, h.itemVelocity.dy), velocityError: h.velocityError,
          estimate: h.estimate)
      case .contact(let c) where c.phase == .began:
        contacts.append((now, c.item))
      case .done(_, let word, _) where outcome == nil:
        outcome = (word, now)
      default:
        break
      }
    }

    /// A parameter's value as the trace's JSON writes it.
    static func text(_ value: ParameterValue) -> String {
      switch value {
      case .number(let v): JSONValue.number(v).jsonText
      case .bool(let flag): flag ? "true" : "false"
      case .string(let word): JSONValue.string(word).jsonText
      }
    }

    /// An item spec's shape as the trace's JSON holds it: a rectangle unless it says otherwise
    /// (and a path with fewer than three points is drawn as its bounds).
    static func shape(_ spec: JSONValue) -> ItemShape {
      switch spec["shape"]?.string {
      case "ellipse": return .ellipse
      case "path":
        guard case .array(let vertices)? = spec["path"] else { return .rectangle }
        let points = vertices.compactMap { vertex in
          vertex[0]?.number.flatMap { x in vertex[1]?.number.map { Point(x: x, y: $0) } }
        }
        return points.count >= 3 && points.count == vertices.count ? .path(points) : .rectangle
      default: return .rectangle
      }
    }

    /// The sizes and shapes, and the reply's state as the first frame.
    private mutating func start(_ items: [ItemState], at t: Double) {
      sizes = items.map { item in
        Size(
          id: item.id, width: item.size.width, height: item.size.height,
          shape: item.shape == .rectangle ? openedShapes[item.id] ?? .rectangle : item.shape)
      }
      frames.append(Frame(t: t, items: items.map(Self.itemFrame)))
      now = t
    }

    private static func itemFrame(_ item: ItemState) -> ItemFrame {
      ItemFrame(id: item.id, x: item.center.x, y: item.center.y, angle: item.angle)
    }
  }
}

/// Why a text is not a trace `Trace` can read: a sentence naming the line or the field.
public struct InvalidTrace: Error {
  public let reason: String
}
