import JSON
import Primitives

/// Reads the lines dynd writes into typed `ServerMessage`s, with Wire's own JSON parser: the
/// client side of `MessageEncoder`, so that `decode(encode(x)) == x` for every reply and event
/// whose numbers are at wire precision (3 decimals, 6 for angles and `values`).
///
/// **Reply bodies.** A reply does not name the op it answers, and two ops can return the same
/// fields (`step` gives `t` and `running`, `get` those and `items`). So the body is read as the
/// reply to the op the caller names with `answering`, which a client knows since it sent the
/// request; the fields that op does not return are ignored. Without `answering` (a raw line
/// sent on a user's behalf), the body is told by its fields, the first that matches winning:
/// `debug` → `.debug`; `sessions` → `.list`; `transitions` → `.hello`; `behaviors` →
/// `.behaviors`; `behavior` → `.addBehavior`; `session` → `.open`; `outcome` → `.watch`;
/// `taken` → `.input`; `t` → `.get` with `items`, else `.step`; `items` → `.itemsInRect` when
/// it is a list of names (or empty), else `.watch`; nothing else → `.empty`.
///
/// **Tolerance.** Fields a message does not define are ignored, an unknown event is
/// `.unknownEvent` and an error with an unknown code `.unknownError` (a newer daemon's), and a
/// handoff constraint of an unknown kind is left out, as is a handoff `estimate` of an unknown
/// reason. Names are taken as they come: checking them
/// is the daemon's job, and printing them safely the client's. A line that is not JSON, not an
/// object, has neither `ok` nor `ev`, or lacks a field a known message requires (or has it with
/// the wrong type) is an error: `bad_json`, `not_an_object`, `missing_field`, `wrong_type`,
/// `invalid_number` or `out_of_range`, whose message names the field.
///
/// One decoder keeps one json-c tokener; it is not thread-safe.
public final class ServerMessageDecoder {
  private let parser: JSONParser

  /// Creates a decoder that rejects nesting deeper than `maxDepth` (the deepest message dynd
  /// writes, a `behaviors` reply holding the deepest valid scene's behaviors, is 56 levels).
  public init(maxDepth: Int = 64) {
    parser = JSONParser(maxDepth: maxDepth)
  }

  /// Decodes one line (without its `\n`); a reply's body as the reply to `op` when given.
  public func decode(_ line: [UInt8], answering op: (any OpRequest.Type)? = nil)
    throws(ProtocolError)
    -> ServerMessage
  {
    try parser.withRoot(line) { root throws(ProtocolError) in
      try Self.message(root, answering: op)
    }
  }

  /// Decodes one line given as a string.
  public func decode(_ line: String, answering op: (any OpRequest.Type)? = nil)
    throws(ProtocolError)
    -> ServerMessage
  {
    try decode(Array(line.utf8), answering: op)
  }

  private static func message(_ root: JSONNode, answering op: (any OpRequest.Type)?)
    throws(ProtocolError)
    -> ServerMessage
  {
    guard root.kind == .object else {
      throw ProtocolError(.notAnObject, "a message must be a JSON object, not \(root.kind.phrase)")
    }
    let fields = try MessageFields(root, path: "")
    if fields.has("ok") {
      return try reply(fields, answering: op)
    }
    if fields.has("ev") {
      let name = try fields.string("ev")
      guard let kind = EventName(rawValue: name) else {
        return .unknownEvent(name: name, fields: try JSONValue(root, orThrow: ProtocolError.init))
      }
      return .event(try event(kind, fields))
    }
    throw ProtocolError(
      .missingField, "a message needs field 'ok' (a reply) or 'ev' (an event); it has neither")
  }

  // MARK: Replies

  private static func reply(_ fields: MessageFields, answering op: (any OpRequest.Type)?)
    throws(ProtocolError) -> ServerMessage
  {
    let id = try requestID(fields)
    guard try fields.bool("ok") else {
      let error = try fields.object("error")
      let code = try error.string("code")
      let message = try error.string("message")
      guard let known = ErrorCode(rawValue: code) else {
        return .unknownError(id: id, code: code, message: message)
      }
      return .reply(Reply(id: id, error: ProtocolError(known, message)))
    }
    return .reply(Reply(id: id, try body(fields, answering: op ?? inferredOp(fields))))
  }

  private static func requestID(_ fields: MessageFields) throws(ProtocolError) -> RequestID? {
    guard let node = fields.node.member("id") else { return nil }
    switch node.kind {
    // The core's error reply is `{"ok":false,"id":…}`: a server may answer a request it could
    // not read (so without an id) with `"id":null`, as JSON-RPC does; dynd leaves it out.
    case .null: return nil
    case .string: return .string(node.string)
    case .number: return .number(node.numberText)
    default: throw wrongType("id", expected: "a string or a number", got: node)
    }
  }

  /// The op whose reply has these fields (see the type's documentation); `nil` for `.empty`.
  private static func inferredOp(_ fields: MessageFields) -> (any OpRequest.Type)? {
    if fields.has("debug") { return DebugRequest.self }
    if fields.has("sessions") { return ListRequest.self }
    if fields.has("transitions") { return HelloRequest.self }
    if fields.has("behaviors") { return BehaviorsRequest.self }
    if fields.has("behavior") { return AddBehaviorRequest.self }
    if fields.has("session") { return OpenRequest.self }
    if fields.has("outcome") { return WatchRequest.self }
    if fields.has("taken") { return TapRequest.self }
    if fields.has("t") { return fields.has("items") ? GetRequest.self : StepRequest.self }
    if let items = fields.node.member("items") {
      let names =
        items.kind == .array && (0..<items.count).allSatisfy { items[$0].kind == .string }
      return names ? ItemsInRectRequest.self : WatchRequest.self
    }
    return nil
  }

  private static func body(_ fields: MessageFields, answering op: (any OpRequest.Type)?)
    throws(ProtocolError)
    -> ReplyBody
  {
    guard let op else { return .empty }
    return try op.readReply(fields)
  }

  // MARK: Events

  private static func event(_ kind: EventName, _ fields: MessageFields) throws(ProtocolError)
    -> Event
  {
    if kind == .shutdown { return .shutdown(reason: try fields.optionalString("reason")) }
    let session = try fields.string("session")
    switch kind {
    case .frame:
      return .frame(
        Frame(
          session: session, seq: try fields.unsigned("seq"), t: try fields.number("t"),
          items: try itemStates(fields, "items"),
          dropped: try fields.optionalInteger("dropped") ?? 0,
          droppedContacts: try fields.optionalInteger("dropped_contacts") ?? 0,
          values: try namedValues(fields)))
    case .contact:
      return .contact(
        Contact(
          session: session, phase: try fields.word("phase", as: ContactPhase.self),
          item: try fields.string("item"), partner: try partner(fields),
          point: try fields.optionalPoint("point")))
    case .pause:
      return .pause(session: session, t: try fields.number("t"))
    case .resume:
      return .resume(session: session, t: try fields.number("t"))
    case .handoff:
      var constraints: [MotionConstraint] = []
      for constraint in try fields.optionalObjects("constraints") ?? [] {
        switch try constraint.string("kind") {
        case "rail": constraints.append(.rail(axis: try constraint.vector("axis")))
        case "anchored": constraints.append(.anchored)
        case "speed_limit": constraints.append(.speedLimit(try constraint.number("max_speed")))
        default: break
        }
      }
      return .handoff(
        Handoff(
          session: session, item: try fields.string("item"),
          gestureVelocity: try fields.vector("gesture_velocity"),
          itemVelocity: try fields.vector("item_velocity"), constraints: constraints,
          velocityError: try fields.number("velocity_error"), estimate: try estimate(fields),
          projection: try fields.optionalPoint("projection"), decay: try handoffDecay(fields),
          detent: try fields.optionalString("detent"), spring: try handoffSpring(fields)))
    case .done:
      return .done(
        session: session, outcome: try fields.string("outcome"), values: try namedValues(fields))
    case .debug:
      return .debug(
        session: session, seq: try fields.unsigned("seq"), t: try fields.number("t"),
        geometry: try debugGeometry(fields))
    case .closed:
      return .closed(session: session, reason: try fields.string("reason"))
    case .slow:
      return .slow(
        session: session, t: try fields.number("t"),
        frameMilliseconds: try fields.number("frame_ms"),
        budgetMilliseconds: try fields.number("budget_ms"))
    case .onTime:
      return .onTime(session: session, t: try fields.number("t"))
    case .contactLimit:
      return .contactLimit(
        session: session, t: try fields.number("t"), limit: try fields.integer("limit"))
    case .action:
      return .action(
        ActionEvent(
          session: session, seq: try fields.unsigned("seq"), t: try fields.number("t"),
          behavior: try fields.string("behavior"), name: try fields.string("name"),
          item: try fields.optionalString("item")))
    case .shutdown:
      return .shutdown(reason: try fields.optionalString("reason"))
    }
  }

  /// A handoff's `estimate`, nil when absent or of a reason this build does not know.
  private static func estimate(_ fields: MessageFields) throws(ProtocolError) -> ReleaseEstimate? {
    guard let estimate = try fields.optionalObject("estimate"),
      let reason = ReleaseEstimate.Reason(rawValue: try estimate.string("reason"))
    else { return nil }
    return ReleaseEstimate(
      reason, samples: try estimate.integer("samples"),
      stillMilliseconds: try estimate.optionalNumber("still_ms"),
      gapMilliseconds: try estimate.optionalNumber("gap_ms"))
  }

  /// A handoff's `decay`: the model of its one field (nil when absent, or of a field or value
  /// this build does not know).
  private static func handoffDecay(_ fields: MessageFields) throws(ProtocolError) -> DecayModel? {
    guard let decay = try fields.optionalObject("decay") else { return nil }
    for field in DecayField.allCases {
      if let value = try decay.optionalNumber(field.key) { return try? field.model(value) }
    }
    return nil
  }

  /// A handoff's `spring` (a sheet's): its constants, from which the rest derive.
  private static func handoffSpring(_ fields: MessageFields) throws(ProtocolError)
    -> SpringParameters?
  {
    guard let spring = try fields.optionalObject("spring") else { return nil }
    return SpringParameters(
      mass: try spring.number("mass"), stiffness: try spring.number("stiffness"),
      damping: try spring.number("damping"))
  }

  /// `with` (an item) or `boundary` (an id, or `null` for the reference bounds).
  private static func partner(_ fields: MessageFields) throws(ProtocolError) -> ContactPartner {
    if fields.has("with") { return .item(try fields.string("with")) }
    guard fields.has("boundary") else {
      throw ProtocolError(
        .missingField, "field 'with' or 'boundary' is required for a contact in '\(fields.name)'")
    }
    return .boundary(try fields.nullableString("boundary"))
  }

  static func itemStates(_ fields: MessageFields, _ key: StaticString)
    throws(ProtocolError) -> [ItemState]
  {
    var states: [ItemState] = []
    for item in try fields.objects(key) {
      let size = try item.optionalPair("size")
      states.append(
        ItemState(
          id: try item.string("id"), center: try item.point("center"),
          angle: try item.number("angle"), velocity: try item.vector("velocity"),
          angularVelocity: try item.number("angular_velocity"),
          size: size.map { Size(width: $0.0, height: $0.1) } ?? Size(width: 0, height: 0),
          shape: try itemShape(item)))
    }
    return states
  }

  /// An item's `shape` (`get` replies): a rectangle when absent or of a word this build does
  /// not know; `path` is required for a path.
  private static func itemShape(_ item: MessageFields) throws(ProtocolError) -> ItemShape {
    switch try item.optionalString("shape") {
    case "ellipse": return .ellipse
    case "path": return .path(try item.objects(rawPoints: "path"))
    default: return .rectangle
    }
  }

  /// `values`, in wire order; empty when absent.
  private static func namedValues(_ fields: MessageFields) throws(ProtocolError) -> [NamedValue] {
    guard let values = try fields.optionalObject("values") else { return [] }
    var entries: [NamedValue] = []
    try values.node.forEachMember { (key, value) throws(ProtocolError) in
      let name = String(decoding: key, as: UTF8.self)
      entries.append(NamedValue(name, try readFinite(value, path: "\(values.path).\(name)")))
    }
    return entries
  }

  static func debugGeometry(_ fields: MessageFields) throws(ProtocolError)
    -> DebugGeometry
  {
    var geometry = DebugGeometry()
    for b in try fields.objects("boundaries") {
      if let id = try b.nullableString("id") {
        let points = try b.objects(rawPoints: "points")
        geometry.boundaries.append(.path(id: id, points: points))
      } else {
        let r = try b.numbers("rect", count: 4)
        geometry.boundaries.append(
          .referenceBounds(Rect(x: r[0], y: r[1], width: r[2], height: r[3])))
      }
    }
    for a in try fields.objects("attachments") {
      geometry.attachments.append(
        DebugGeometry.Attachment(
          kind: try a.string("kind"), item: try a.string("item"),
          itemPoint: try a.point("item_point"), to: try a.nullableString("to"),
          toPoint: try a.point("to_point"), spring: try a.bool("spring"),
          length: try a.number("length"),
          axis: try a.optionalPair("axis").map { Vector(dx: $0.0, dy: $0.1) }))
    }
    for s in try fields.objects("snaps") {
      geometry.snaps.append(
        DebugGeometry.Snap(item: try s.string("item"), point: try s.point("point")))
    }
    for p in try fields.objects("pushes") {
      geometry.pushes.append(
        DebugGeometry.Push(
          items: try p.strings("items"), mode: try p.string("mode"),
          vector: try p.vector("vector"), active: try p.bool("active")))
    }
    for g in try fields.objects("gravity") {
      geometry.gravity.append(
        DebugGeometry.Gravity(items: try g.strings("items"), vector: try g.vector("vector")))
    }
    for f in try fields.optionalObjects("fields") ?? [] {
      var samples: [DebugGeometry.Sample] = []
      for sample in try f.objects(rawQuadruples: "samples") {
        samples.append(
          DebugGeometry.Sample(
            point: Point(x: sample[0], y: sample[1]), force: Vector(dx: sample[2], dy: sample[3])))
      }
      geometry.fields.append(
        DebugGeometry.Field(
          id: try f.string("id"), kind: try f.string("kind"), position: try f.point("position"),
          region: try f.region("region"), strength: try f.number("strength"),
          items: try f.strings("items"), samples: samples))
    }
    for g in try fields.optionalObjects("groups") ?? [] {
      let size = try g.numbers("size", count: 2)
      geometry.groups.append(
        DebugGeometry.Group(
          id: try g.string("id"), items: try g.strings("items"), center: try g.point("center"),
          angle: try g.number("angle"), size: Size(width: size[0], height: size[1])))
    }
    for c in try fields.objects("contacts") {
      geometry.contacts.append(
        DebugGeometry.Touch(
          item: try c.string("item"), partner: try partner(c),
          point: try c.optionalPoint("point")))
    }
    if fields.has("left_out") { geometry.leftOut = try fields.integer("left_out") }
    return geometry
  }
}

/// The members of one object of a message, read leniently: unknown members are ignored, and a
/// missing or mistyped member throws with its path. Public only as the parameter of
/// `OpRequest.readReply`: every getter is the module's own.
public struct MessageFields {
  let node: JSONNode
  /// Path of this object from the line's root ("" for the root).
  let path: String

  init(_ node: JSONNode, path: String) throws(ProtocolError) {
    guard node.kind == .object else {
      throw wrongType(path, expected: "an object", got: node)
    }
    self.node = node
    self.path = path
  }

  /// How messages name this object.
  var name: String { path.isEmpty ? "the message" : path }

  func fieldPath(_ key: StaticString) -> String {
    path.isEmpty ? "\(key)" : "\(path).\(key)"
  }

  func has(_ key: StaticString) -> Bool { node.member(key) != nil }

  func required(_ key: StaticString) throws(ProtocolError) -> JSONNode {
    guard let value = node.member(key) else {
      throw ProtocolError(.missingField, "field '\(fieldPath(key))' is missing")
    }
    return value
  }

  func string(_ key: StaticString) throws(ProtocolError) -> String {
    let value = try required(key)
    guard value.kind == .string else {
      throw wrongType(fieldPath(key), expected: "a string", got: value)
    }
    return value.string
  }

  /// A string that may be absent or `null`.
  func optionalString(_ key: StaticString) throws(ProtocolError) -> String? {
    guard has(key) else { return nil }
    return try nullableString(key)
  }

  /// A string or `null`, present.
  func nullableString(_ key: StaticString) throws(ProtocolError) -> String? {
    let value = try required(key)
    switch value.kind {
    case .null: return nil
    case .string: return value.string
    default: throw wrongType(fieldPath(key), expected: "a string or null", got: value)
    }
  }

  func word<Word: RawRepresentable>(_ key: StaticString, as type: Word.Type) throws(ProtocolError)
    -> Word where Word.RawValue == String
  {
    let text = try string(key)
    guard let word = Word(rawValue: text) else {
      throw ProtocolError(.outOfRange, "field '\(fieldPath(key))' has an unknown value '\(text)'")
    }
    return word
  }

  func bool(_ key: StaticString) throws(ProtocolError) -> Bool {
    let value = try required(key)
    guard value.kind == .bool else {
      throw wrongType(fieldPath(key), expected: "a boolean", got: value)
    }
    return value.bool
  }

  func number(_ key: StaticString) throws(ProtocolError) -> Double {
    try readFinite(try required(key), path: fieldPath(key))
  }

  func unsigned(_ key: StaticString) throws(ProtocolError) -> UInt64 {
    try readUnsigned(try required(key), path: fieldPath(key))
  }

  func integer(_ key: StaticString) throws(ProtocolError) -> Int {
    try readInteger(try required(key), path: fieldPath(key))
  }

  func optionalInteger(_ key: StaticString) throws(ProtocolError) -> Int? {
    guard let value = node.member(key) else { return nil }
    return try readInteger(value, path: fieldPath(key))
  }

  func numbers(_ key: StaticString, count: Int) throws(ProtocolError) -> [Double] {
    try readFiniteNumbers(try required(key), path: fieldPath(key), count: count)
  }

  func optionalPair(_ key: StaticString) throws(ProtocolError) -> (Double, Double)? {
    guard let value = node.member(key) else { return nil }
    let numbers = try readFiniteNumbers(value, path: fieldPath(key), count: 2)
    return (numbers[0], numbers[1])
  }

  func point(_ key: StaticString) throws(ProtocolError) -> Point {
    let numbers = try self.numbers(key, count: 2)
    return Point(x: numbers[0], y: numbers[1])
  }

  func optionalPoint(_ key: StaticString) throws(ProtocolError) -> Point? {
    try optionalPair(key).map { Point(x: $0.0, y: $0.1) }
  }

  func vector(_ key: StaticString) throws(ProtocolError) -> Vector {
    let numbers = try self.numbers(key, count: 2)
    return Vector(dx: numbers[0], dy: numbers[1])
  }

  func strings(_ key: StaticString) throws(ProtocolError) -> [String] {
    let list = try array(key)
    var strings: [String] = []
    strings.reserveCapacity(list.count)
    for index in 0..<list.count {
      let element = list[index]
      guard element.kind == .string else {
        throw wrongType("\(fieldPath(key))[\(index)]", expected: "a string", got: element)
      }
      strings.append(element.string)
    }
    return strings
  }

  /// The lists of 4 numbers `[[a, b, c, d], …]` in field `key`.
  func objects(rawQuadruples key: StaticString) throws(ProtocolError) -> [[Double]] {
    let list = try array(key)
    var quadruples: [[Double]] = []
    quadruples.reserveCapacity(list.count)
    for index in 0..<list.count {
      quadruples.append(
        try readFiniteNumbers(list[index], path: "\(fieldPath(key))[\(index)]", count: 4))
    }
    return quadruples
  }

  /// The points `[[x, y], …]` in field `key`.
  func objects(rawPoints key: StaticString) throws(ProtocolError) -> [Point] {
    let list = try array(key)
    var points: [Point] = []
    points.reserveCapacity(list.count)
    for index in 0..<list.count {
      let numbers = try readFiniteNumbers(
        list[index], path: "\(fieldPath(key))[\(index)]", count: 2)
      points.append(Point(x: numbers[0], y: numbers[1]))
    }
    return points
  }

  func object(_ key: StaticString) throws(ProtocolError) -> MessageFields {
    try MessageFields(try required(key), path: fieldPath(key))
  }

  func optionalObject(_ key: StaticString) throws(ProtocolError) -> MessageFields? {
    guard let value = node.member(key) else { return nil }
    return try MessageFields(value, path: fieldPath(key))
  }

  func objects(_ key: StaticString) throws(ProtocolError) -> [MessageFields] {
    let list = try array(key)
    var objects: [MessageFields] = []
    objects.reserveCapacity(list.count)
    for index in 0..<list.count {
      objects.append(try MessageFields(list[index], path: "\(fieldPath(key))[\(index)]"))
    }
    return objects
  }

  func optionalObjects(_ key: StaticString) throws(ProtocolError) -> [MessageFields]? {
    guard has(key) else { return nil }
    return try objects(key)
  }

  private func array(_ key: StaticString) throws(ProtocolError) -> JSONNode {
    let value = try required(key)
    guard value.kind == .array else {
      throw wrongType(fieldPath(key), expected: "an array", got: value)
    }
    return value
  }
}

/// A finite number.
private func readFinite(_ node: JSONNode, path: @autoclosure () -> String) throws(ProtocolError)
  -> Double
{
  guard node.kind == .number else { throw wrongType(path(), expected: "a number", got: node) }
  let value = node.double
  guard value.isFinite else {
    throw ProtocolError(.invalidNumber, "field '\(path())' is not a finite number")
  }
  return value
}

/// An array of exactly `count` finite numbers.
private func readFiniteNumbers(_ node: JSONNode, path: @autoclosure () -> String, count: Int)
  throws(ProtocolError) -> [Double]
{
  guard node.kind == .array, node.count == count else {
    throw wrongType(path(), expected: "an array of \(count) numbers", got: node)
  }
  var numbers: [Double] = []
  numbers.reserveCapacity(count)
  for index in 0..<count {
    numbers.append(try readFinite(node[index], path: "\(path())[\(index)]"))
  }
  return numbers
}

/// A whole number ≥ 0, exactly (json-c keeps integers as 64-bit integers).
private func readUnsigned(_ node: JSONNode, path: @autoclosure () -> String)
  throws(ProtocolError) -> UInt64
{
  guard node.kind == .number else { throw wrongType(path(), expected: "a number", got: node) }
  if let signed = node.int64 {
    // Above Int64.max json-c keeps a uint64, read back saturated as int64.
    if signed == .max { return node.uint64 }
    if signed >= 0 { return UInt64(signed) }
  } else if let value = UInt64(exactly: node.double) {
    return value
  }
  throw ProtocolError(.outOfRange, "field '\(path())' must be a whole number ≥ 0")
}

/// A whole number that fits an `Int`.
private func readInteger(_ node: JSONNode, path: @autoclosure () -> String)
  throws(ProtocolError) -> Int
{
  guard node.kind == .number else { throw wrongType(path(), expected: "a number", got: node) }
  if let signed = node.int64 {
    if signed != .max, let value = Int(exactly: signed) { return value }
  } else if let value = Int(exactly: node.double) {
    return value
  }
  throw ProtocolError(.outOfRange, "field '\(path())' must be a whole number")
}
