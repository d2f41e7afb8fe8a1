import JSON
import Primitives

/// Writes typed requests as JSON lines: exactly what `RequestDecoder` reads back, so that
/// `decode(encode(request)) == request` for every request the decoder accepts.
///
/// Members come in a fixed order: `op`, `id` (when there is one), then the op's fields in the
/// order PROTOCOL.md lists them, with `session` first. A field is left out when it holds the
/// value the decoder assumes without it: an absent optional, `clock` realtime, `fps` 60, `keep`
/// false, `count` 1, `enable` true, `estimator` platform, an item's `angle` 0 and `shape`
/// rectangle, an attachment's `kind` distance, empty `params`, scene lists and boundaries, a
/// field's empty `items`, a composite's empty `children`, empty `action` rules and a rule's
/// `repeat` false.
///
/// Numbers are written as the shortest text that reads back as the same double (`0.1`,
/// `0.016666666666666666`), so nothing is rounded on the way; a number `id` is written as its
/// text. Strings are escaped as the daemon escapes them.
public struct RequestEncoder: Sendable {
  private var writer: JSONWriter
  /// Whether the object being written has no member yet.
  private var first = true

  /// Creates an encoder whose buffer starts with room for `capacity` bytes.
  public init(capacity: Int = 1024) {
    writer = JSONWriter(capacity: capacity)
  }

  /// The encoded lines since the last `removeAll()`, each ending in `\n`.
  public var bytes: [UInt8] { writer.bytes }

  /// Empties the buffer, keeping its capacity.
  public mutating func removeAll() {
    writer.bytes.removeAll(keepingCapacity: true)
  }

  /// Appends `request` as one line.
  public mutating func encode(_ request: Request) {
    writer.byte("{")
    first = true
    key("op")
    writer.string(request.op.name)
    switch request.id {
    case .string(let text)?:
      key("id")
      writer.string(text)
    case .number(let text)?:
      key("id")
      writer.bytes.append(contentsOf: text.utf8)
    case nil:
      break
    }
    fields(of: request.op)
    writer.raw("}\n")
  }

  /// A transition's `params` object, numbers exactly as given.
  mutating func transitionParams(_ params: TransitionParams) {
    key("params")
    writer.byte("{")
    for (index, entry) in params.entries.enumerated() {
      if index > 0 { writer.byte(",") }
      writer.string(entry.name)
      writer.byte(":")
      switch entry.value {
      case .number(let value): writer.exactNumber(value)
      case .bool(let value): writer.bool(value)
      case .string(let value): writer.string(value)
      }
    }
    writer.byte("}")
  }

  mutating func null() {
    writer.raw("null")
  }

  // MARK: Scenes

  mutating func scene(_ scene: SceneSpec) {
    object {
      if let bounds = scene.bounds {
        $0.rect("bounds", bounds)
      } else if scene.withoutBounds {
        $0.key("bounds")
        $0.writer.raw("null")
      }
      if !scene.items.isEmpty {
        $0.key("items")
        $0.array(scene.items) { $0.item($1) }
      }
      if !scene.groups.isEmpty {
        $0.key("groups")
        $0.array(scene.groups) { encoder, group in
          encoder.object {
            $0.word("id", group.id)
            $0.names("items", group.items)
          }
        }
      }
      if !scene.behaviors.isEmpty {
        $0.key("behaviors")
        $0.array(scene.behaviors) { $0.behavior($1) }
      }
    }
  }

  mutating func item(_ item: ItemSpec) {
    object {
      $0.word("id", item.id)
      $0.point("center", item.center)
      $0.pair("size", (item.size.width, item.size.height))
      if item.angle != 0 { $0.number("angle", item.angle) }
      switch item.shape {
      case .rectangle: break
      case .ellipse: $0.word("shape", "ellipse")
      case .path(let points):
        $0.word("shape", "path")
        $0.points("path", points)
      }
    }
  }

  mutating func behavior(_ behavior: BehaviorSpec) {
    object {
      $0.word("type", behavior.type.rawValue)
      if let id = behavior.id { $0.word("id", id) }
      switch behavior {
      case .gravity(let g):
        $0.names("items", g.items)
        $0.pair("direction", g.direction.map { ($0.dx, $0.dy) })
        $0.number("angle", g.angle)
        $0.number("magnitude", g.magnitude)
      case .collision(let c):
        $0.names("items", c.items)
        if let mode = c.mode { $0.word("mode", mode.rawValue) }
        if let referenceBounds = c.referenceBounds { $0.bool("reference_bounds", referenceBounds) }
        $0.insets("insets", c.insets)
        if !c.boundaries.isEmpty { $0.boundaries(c.boundaries) }
      case .attachment(let a):
        if a.kind != .distance { $0.word("kind", a.kind.rawValue) }
        $0.word("item", a.item)
        if let to = a.to { $0.word("to", to) }
        $0.point("anchor", a.anchor)
        $0.pair("offset", a.offset.map { ($0.dx, $0.dy) })
        $0.pair("to_offset", a.toOffset.map { ($0.dx, $0.dy) })
        $0.number("length", a.length)
        $0.number("damping", a.damping)
        $0.number("frequency", a.frequency)
        $0.pair("axis", a.axis.map { ($0.dx, $0.dy) })
        $0.pair("range", a.range.map { ($0.minimum, $0.maximum) })
        $0.number("friction_torque", a.frictionTorque)
      case .snap(let s):
        $0.word("item", s.item)
        $0.point("point", s.point)
        $0.number("damping", s.damping)
      case .push(let p):
        $0.names("items", p.items)
        $0.word("mode", p.mode.rawValue)
        $0.pair("direction", p.direction.map { ($0.dx, $0.dy) })
        $0.number("angle", p.angle)
        $0.number("magnitude", p.magnitude)
        $0.pair("offset", p.offset.map { ($0.dx, $0.dy) })
        if let active = p.active { $0.bool("active", active) }
      case .dynamicItem(let d):
        $0.names("items", d.items)
        $0.itemProperties(d.properties)
      case .field(let f):
        $0.word("kind", f.kind.rawValue)
        if !f.items.isEmpty { $0.names("items", f.items) }
        $0.point("position", f.position)
        if let region = f.region { $0.region("region", region) }
        $0.number("strength", f.strength)
        $0.number("falloff", f.falloff)
        $0.number("minimum_radius", f.minimumRadius)
        $0.pair("direction", f.direction.map { ($0.dx, $0.dy) })
        $0.number("smoothness", f.smoothness)
        $0.number("animation_speed", f.animationSpeed)
        if let seed = f.seed { $0.seed("seed", seed) }
      case .spring(let s):
        $0.names("items", s.items)
        $0.point("target", s.target)
        for (field, value) in s.parameters.orderedValues { $0.number(field.key, value) }
        $0.pair("initial_velocity", s.initialVelocity.map { ($0.dx, $0.dy) })
      case .decay(let d):
        $0.names("items", d.items)
        $0.number(d.model.parameter.field.key, d.model.parameter.value)
        $0.pair("initial_velocity", d.initialVelocity.map { ($0.dx, $0.dy) })
      case .composite(let c):
        if !c.children.isEmpty {
          $0.key("children")
          $0.array(c.children) { $0.behavior($1) }
        }
      }
      if !behavior.action.isEmpty { $0.actionRules(behavior.action) }
    }
  }

  /// A rectangle as `[w, h]` when its origin is (0, 0), else `[x, y, w, h]`.
  mutating func rect(_ name: StaticString, _ r: Rect) {
    key(name)
    if r.minX == 0, r.minY == 0 {
      numbers([r.size.width, r.size.height])
    } else {
      numbers([r.minX, r.minY, r.size.width, r.size.height])
    }
  }

  mutating func region(_ name: StaticString, _ region: RegionSpec) {
    key(name)
    regionObject(region)
  }

  mutating func regionObject(_ region: RegionSpec) {
    object {
      switch region {
      case .infinite: $0.bool("infinite", true)
      case .radius(let r): $0.number("radius", r)
      case .size(let s): $0.pair("size", (s.width, s.height))
      case .inverse(let r): $0.region("inverse", r)
      case .union(let a, let b): $0.regionPair("union", a, b)
      case .intersection(let a, let b): $0.regionPair("intersection", a, b)
      case .difference(let a, let b): $0.regionPair("difference", a, b)
      }
    }
  }

  mutating func regionPair(_ name: StaticString, _ a: RegionSpec, _ b: RegionSpec) {
    key(name)
    array([a, b]) { $0.regionObject($1) }
  }

  /// A whole number (a field's `seed`), exactly.
  mutating func seed(_ name: StaticString, _ value: UInt64) {
    key(name)
    writer.bytes.append(contentsOf: String(value).utf8)
  }

  mutating func actionRules(_ rules: [ActionRule]) {
    key("action")
    array(rules) { encoder, rule in
      encoder.object {
        $0.key("when")
        $0.condition(rule.when)
        $0.key("then")
        $0.array(rule.then) { $0.effect($1) }
        if rule.repeats { $0.bool("repeat", true) }
      }
    }
  }

  mutating func condition(_ condition: ActionCondition) {
    object {
      switch condition {
      case .always:
        $0.bool("always", true)
      case .inside(let item, let r), .outside(let item, let r):
        $0.word("item", item)
        if case .inside = condition { $0.key("inside") } else { $0.key("outside") }
        $0.numbers([r.minX, r.minY, r.size.width, r.size.height])
      case .speedBelow(let item, let speed):
        $0.word("item", item)
        $0.number("speed_below", speed)
      case .speedAbove(let item, let speed):
        $0.word("item", item)
        $0.number("speed_above", speed)
      }
    }
  }

  mutating func effect(_ effect: ActionEffect) {
    object {
      switch effect {
      case .emit(let name): $0.word("emit", name)
      case .removeBehavior(let id): $0.word("remove_behavior", id)
      case .set(let behavior, let fields):
        $0.key("set")
        $0.object {
          $0.word("behavior", behavior)
          $0.members(of: fields)
        }
      }
    }
  }

  mutating func boundaries(_ boundaries: [BoundarySpec]) {
    key("boundaries")
    array(boundaries) { encoder, boundary in
      encoder.object {
        $0.word("id", boundary.id)
        switch boundary.shape {
        case .segment(let from, let to):
          $0.point("from", from)
          $0.point("to", to)
        case .path(let points):
          $0.points("path", points)
        }
      }
    }
  }

  /// A member whose value is JSON text written before (`define`'s document, as sent).
  mutating func raw(_ name: StaticString, _ json: String) {
    key(name)
    writer.bytes.append(contentsOf: json.utf8)
  }

  /// The members of `fields`' object, as the request gave them.
  mutating func members(of fields: BehaviorFields) {
    let members = fields.text.utf8.dropFirst().dropLast()
    guard !members.isEmpty else { return }
    if !first { writer.byte(",") }
    first = false
    writer.bytes.append(contentsOf: members)
  }

  /// The fields of a `set_behavior` a client sets (`BehaviorFields(_:)`).
  mutating func update(_ u: BehaviorUpdate) {
    if let items = u.items { names("items", items) }
    pair("direction", u.direction.map { ($0.dx, $0.dy) })
    number("angle", u.angle)
    number("magnitude", u.magnitude)
    if let mode = u.mode { word("mode", mode.rawValue) }
    if let referenceBounds = u.referenceBounds { bool("reference_bounds", referenceBounds) }
    insets("insets", u.insets)
    if let list = u.boundaries { boundaries(list) }
    point("anchor", u.anchor)
    number("length", u.length)
    number("damping", u.damping)
    number("frequency", u.frequency)
    number("friction_torque", u.frictionTorque)
    pair("range", u.range.map { ($0.minimum, $0.maximum) })
    point("point", u.point)
    if let active = u.active { bool("active", active) }
    pair("offset", u.offset.map { ($0.dx, $0.dy) })
    itemProperties(u.itemProperties)
    point("position", u.position)
    if let region = u.region { self.region("region", region) }
    number("strength", u.strength)
    number("falloff", u.falloff)
    number("minimum_radius", u.minimumRadius)
    number("smoothness", u.smoothness)
    number("animation_speed", u.animationSpeed)
    if let seed = u.seed { self.seed("seed", seed) }
    point("target", u.target)
    if let spring = u.spring {
      for field in SpringField.allCases { number(field.key, spring.values[field]) }
    }
    if let decay = u.decay {
      let (field, value) = decay.parameter
      number(field.key, value)
    }
    if let rules = u.action {
      if rules.isEmpty {
        key("action")
        writer.raw("[]")
      } else {
        actionRules(rules)
      }
    }
  }

  // MARK: Members

  /// Starts the member `name` of the current object.
  mutating func key(_ name: StaticString) {
    if !first { writer.byte(",") }
    first = false
    writer.byte("\"")
    writer.raw(name)
    writer.raw("\":")
  }

  /// An object whose members `body` writes.
  mutating func object(_ body: (inout RequestEncoder) -> Void) {
    writer.byte("{")
    first = true
    body(&self)
    writer.byte("}")
    first = false
  }

  mutating func array<Element>(
    _ elements: [Element], _ body: (inout RequestEncoder, Element) -> Void
  ) {
    writer.byte("[")
    for (index, element) in elements.enumerated() {
      if index > 0 { writer.byte(",") }
      body(&self, element)
    }
    writer.byte("]")
  }

  mutating func word(_ name: StaticString, _ value: String) {
    key(name)
    writer.string(value)
  }

  mutating func bool(_ name: StaticString, _ value: Bool) {
    key(name)
    writer.bool(value)
  }

  mutating func integer(_ name: StaticString, _ value: Int) {
    key(name)
    writer.integer(value)
  }

  /// The number `value`, if there is one.
  mutating func number(_ name: StaticString, _ value: Double?) {
    guard let value else { return }
    key(name)
    writer.exactNumber(value)
  }

  /// Two number fields that come together (`vx` and `vy`), if there is a value.
  mutating func vector(_ first: StaticString, _ second: StaticString, _ value: Vector?) {
    guard let value else { return }
    number(first, value.dx)
    number(second, value.dy)
  }

  /// `[a, b]`, if there is a value.
  mutating func pair(_ name: StaticString, _ value: (Double, Double)?) {
    guard let value else { return }
    key(name)
    numbers([value.0, value.1])
  }

  mutating func point(_ name: StaticString, _ value: Point?) {
    pair(name, value.map { ($0.x, $0.y) })
  }

  mutating func insets(_ name: StaticString, _ value: EdgeInsets?) {
    guard let value else { return }
    key(name)
    numbers([value.top, value.left, value.bottom, value.right])
  }

  mutating func points(_ name: StaticString, _ points: [Point]) {
    key(name)
    array(points) { $0.numbers([$1.x, $1.y]) }
  }

  mutating func names(_ name: StaticString, _ names: [String]) {
    key(name)
    array(names) { $0.writer.string($1) }
  }

  mutating func numbers(_ values: [Double]) {
    writer.byte("[")
    for (index, value) in values.enumerated() {
      if index > 0 { writer.byte(",") }
      writer.exactNumber(value)
    }
    writer.byte("]")
  }
}

extension Request {
  /// The request as one JSON line, without its `\n` (`RequestEncoder`).
  public var encodedLine: String {
    var encoder = RequestEncoder(capacity: 256)
    encoder.encode(self)
    return String(decoding: encoder.bytes.dropLast(), as: UTF8.self)
  }
}
