import JSON
import Primitives

/// Decodes request lines into typed `Request`s, with every check of the protocol.
///
/// Checks happen in a fixed order, so a line with several faults always gets the same error:
/// lexical and syntax checks (`bad_json`, `invalid_number`), `not_an_object`, the `id`, the `op`
/// (`missing_field`, `wrong_type`, `unknown_op`), then the op's fields: unknown names first
/// (`unknown_field`), then each field in the order the op's documentation lists them.
///
/// One decoder keeps one json-c tokener; it is not thread-safe. Decoding a line allocates only the
/// json-c tree and the Swift values of the result.
public final class RequestDecoder {
  private let parser: JSONParser

  /// Creates a decoder that rejects nesting deeper than `maxDepth`.
  public init(maxDepth: Int = Limits.maxNestingDepth) {
    parser = JSONParser(maxDepth: maxDepth)
  }

  /// Decodes one line (without its `\n`).
  public func decode(_ line: [UInt8]) throws(RejectedRequest) -> Request {
    try line.withUnsafeBytes { bytes in
      Result { () throws(RejectedRequest) -> Request in try decode(bytes) }
    }.get()
  }

  /// Decodes one line (without its `\n`) lent by the caller, such as a line still in the reader
  /// that split it.
  public func decode(_ line: UnsafeRawBufferPointer) throws(RejectedRequest) -> Request {
    var id: RequestID?
    do {
      return try parser.withRoot(line) { root throws(ProtocolError) in
        guard root.kind == .object else {
          throw ProtocolError(
            .notAnObject, "a request must be a JSON object, not \(root.kind.phrase)")
        }
        id = try Self.readID(root)
        return Request(id: id, op: try Self.readOp(root))
      }
    } catch {
      throw RejectedRequest(id: id, error: error)
    }
  }

  /// Decodes one line given as a string (for tests and tools).
  public func decode(_ line: String) throws(RejectedRequest) -> Request {
    try decode(Array(line.utf8))
  }

  private static func readID(_ root: JSONNode) throws(ProtocolError) -> RequestID? {
    guard let node = root.member("id") else { return nil }
    switch node.kind {
    case .string:
      return .string(node.string)
    case .number:
      guard node.double.isFinite else {
        throw ProtocolError(.invalidNumber, "field 'id' is not a finite number")
      }
      return .number(node.numberText)
    default:
      throw wrongType("id", expected: "a string or a number", got: node)
    }
  }

  private static func readOp(_ root: JSONNode) throws(ProtocolError) -> Op {
    guard let opNode = root.member("op") else {
      throw ProtocolError(.missingField, "field 'op' is required for every request")
    }
    guard opNode.kind == .string else {
      throw wrongType("op", expected: "a string", got: opNode)
    }
    let name = opNode.string
    guard let kind = OpName(rawValue: name) else {
      throw ProtocolError(
        .unknownOp,
        "no op is named '\(quoted(name))'"
          + didYouMean(name, among: OpName.allCases.map(\.rawValue)))
    }
    let fields = try ObjectReader(root, path: "", owner: "op '\(name)'")
    try fields.rejectUnknownFields(kind.fields)
    return try kind.read(fields)
  }
}

/// What each `op` defines: its fields, and how they are read.
extension OpName {
  /// Every field the op defines, including `op` and `id`.
  var fields: [StaticString] { Self.fieldTable[self] ?? [] }

  /// The field lists, built once rather than on every request.
  private static let fieldTable: [OpName: [StaticString]] = Dictionary(
    uniqueKeysWithValues: allCases.map { ($0, $0.definedFields) })

  private var definedFields: [StaticString] {
    let common: [StaticString] = ["op", "id"]
    switch self {
    case .hello: return common
    case .list: return common + ["from", "limit"]
    case .open:
      return common + ["transition", "scene", "session", "params", "clock", "fps", "keep"]
    case .gesture: return common + ["session", "phase", "x", "y", "t", "vx", "vy", "estimator"]
    case .tap: return common + ["session", "x", "y"]
    case .swipe: return common + ["session", "direction", "x", "y", "vx", "vy"]
    case .step: return common + ["session", "dt", "count"]
    case .get, .watch, .close, .removeAllBehaviors, .behaviors: return common + ["session"]
    case .debug: return common + ["session", "enable"]
    case .addItem, .removeItem: return common + ["session", "item"]
    case .addBehavior, .removeBehavior: return common + ["session", "behavior"]
    case .setBehavior: return common + ["session", "behavior"] + BehaviorUpdate.fields
    case .setItem: return common + ["session", "item", "center", "angle"]
    case .addVelocity: return common + ["session", "item", "velocity", "angular"]
    case .addGroup, .removeGroup: return common + ["session", "group"]
    case .itemsInRect: return common + ["session", "rect"]
    case .setBounds: return common + ["session", "bounds"]
    }
  }

  func read(_ fields: ObjectReader) throws(ProtocolError) -> Op {
    switch self {
    case .hello: return .hello
    case .list:
      return .list(
        ListRequest(
          from: try fields.integer("from", in: Limits.listFrom) ?? 0,
          limit: try fields.integer("limit", in: Limits.listLimit)))
    case .open: return .open(try OpenRequest(fields))
    case .gesture:
      return .gesture(
        GestureRequest(
          session: try fields.requiredName("session"),
          phase: try fields.requiredWord("phase", as: GesturePhase.self),
          point: try fields.requiredPair("x", "y", in: Limits.coordinate, Point.init),
          t: try fields.number("t", in: Limits.clientTime),
          velocity: try fields.pair("vx", "vy", in: Limits.speed, Vector.init),
          estimator: try fields.word("estimator", as: VelocityEstimator.self) ?? .platform))
    case .tap:
      return .tap(
        TapRequest(
          session: try fields.requiredName("session"),
          point: try fields.requiredPair("x", "y", in: Limits.coordinate, Point.init)))
    case .swipe:
      return .swipe(
        SwipeRequest(
          session: try fields.requiredName("session"),
          direction: try fields.requiredWord("direction", as: SwipeDirection.self),
          point: try fields.pair("x", "y", in: Limits.coordinate, Point.init),
          velocity: try fields.pair("vx", "vy", in: Limits.speed, Vector.init)))
    case .step:
      let step = StepRequest(
        session: try fields.requiredName("session"),
        dt: try fields.number("dt", in: Limits.stepDuration),
        count: try fields.integer("count", in: Limits.stepCount) ?? 1)
      if step.dt != nil { try step.check(fps: Limits.defaultFPS) }
      return .step(step)
    case .get: return .get(session: try fields.requiredName("session"))
    case .watch: return .watch(session: try fields.requiredName("session"))
    case .debug:
      return .debug(
        session: try fields.requiredName("session"), enable: try fields.bool("enable") ?? true)
    case .close: return .close(session: try fields.requiredName("session"))
    case .removeAllBehaviors:
      return .removeAllBehaviors(session: try fields.requiredName("session"))
    case .behaviors: return .behaviors(session: try fields.requiredName("session"))
    case .addItem:
      let session = try fields.requiredName("session")
      let item = try fields.requiredObject("item", owner: "an item")
      return .addItem(session: session, item: try ItemSpec(item))
    case .removeItem:
      return .removeItem(
        session: try fields.requiredName("session"), item: try fields.requiredName("item"))
    case .addBehavior:
      let session = try fields.requiredName("session")
      let behavior = try fields.requiredObject("behavior", owner: "a behavior")
      return .addBehavior(session: session, behavior: try BehaviorSpec(behavior))
    case .removeBehavior:
      return .removeBehavior(
        session: try fields.requiredName("session"), behavior: try fields.requiredName("behavior"))
    case .setBehavior:
      let session = try fields.requiredName("session")
      let behavior = try fields.requiredName("behavior")
      let update = try BehaviorUpdate(fields)
      guard !update.fieldNames.isEmpty else {
        throw ProtocolError(
          .missingField, "op 'set_behavior' needs at least one field to set besides 'behavior'")
      }
      return .setBehavior(SetBehaviorRequest(session: session, behavior: behavior, update: update))
    case .setItem:
      return .setItem(
        SetItemRequest(
          session: try fields.requiredName("session"), item: try fields.requiredName("item"),
          center: try fields.point("center"), angle: try fields.number("angle", in: Limits.angle)))
    case .addVelocity:
      return .addVelocity(
        AddVelocityRequest(
          session: try fields.requiredName("session"), item: try fields.requiredName("item"),
          velocity: try fields.vector("velocity", in: Limits.speed),
          angular: try fields.number("angular", in: Limits.angularSpeed)))
    case .addGroup:
      let session = try fields.requiredName("session")
      let group = try fields.requiredObject("group", owner: "a group")
      return .addGroup(session: session, group: try GroupSpec(group))
    case .removeGroup:
      return .removeGroup(
        session: try fields.requiredName("session"), group: try fields.requiredName("group"))
    case .itemsInRect:
      return .itemsInRect(
        session: try fields.requiredName("session"),
        rect: try fields.requiredSelectionRect("rect"))
    case .setBounds:
      let session = try fields.requiredName("session")
      if fields.isNull("bounds") { return .setBounds(session: session, bounds: nil) }
      guard let bounds = try fields.rect("bounds") else { throw fields.missing("bounds") }
      return .setBounds(session: session, bounds: bounds)
    }
  }
}

extension OpenRequest {
  init(_ fields: ObjectReader) throws(ProtocolError) {
    let source: Source
    if fields.has("transition") {
      if fields.has("scene") { throw fields.exclusive("scene", with: "transition") }
      let name = try fields.requiredName("transition")
      let params = try fields.object("params", owner: "the transition's params")
      source = .transition(name: name, params: try params.map(TransitionParams.init) ?? .init())
    } else if let scene = try fields.object("scene", owner: "a scene") {
      if fields.has("params") {
        throw ProtocolError(
          .unknownField, "field 'params' is only defined with 'transition', not with 'scene'")
      }
      source = .scene(try SceneSpec(scene))
    } else {
      throw ProtocolError(
        .missingField, "op 'open' needs field 'transition' (a name) or 'scene' (an object)")
    }
    self.init(
      source: source, session: try fields.name("session"),
      clock: try fields.word("clock", as: Clock.self) ?? .realtime,
      fps: try fields.number("fps", in: Limits.fps) ?? Limits.defaultFPS,
      keep: try fields.bool("keep") ?? false)
  }
}

extension ObjectReader {
  /// Two number fields that come together (`x` and `y`, `vx` and `vy`): both or neither.
  func pair<Value>(
    _ first: StaticString, _ second: StaticString, in range: NumberRange,
    _ make: (Double, Double) -> Value
  ) throws(ProtocolError) -> Value? {
    let a = try number(first, in: range)
    let b = try number(second, in: range)
    switch (a, b) {
    case (let a?, let b?): return make(a, b)
    case (nil, nil): return nil
    case (nil, _):
      throw ProtocolError(
        .missingField, "field '\(fieldPath(first))' is required with '\(second)' in \(owner)")
    case (_, nil):
      throw ProtocolError(
        .missingField, "field '\(fieldPath(second))' is required with '\(first)' in \(owner)")
    }
  }

  /// Two number fields that are both required.
  func requiredPair<Value>(
    _ first: StaticString, _ second: StaticString, in range: NumberRange,
    _ make: (Double, Double) -> Value
  ) throws(ProtocolError) -> Value {
    make(try requiredNumber(first, in: range), try requiredNumber(second, in: range))
  }
}
