import Primitives

/// `open`: a named transition with its params, or a scene.
public struct OpenRequest: Equatable, Sendable {
  /// What the session animates.
  public enum Source: Equatable, Sendable {
    /// A named transition (`unknown_transition` is the daemon's to check) and its parameters.
    case transition(name: String, params: TransitionParams)
    /// A scene built from items and behaviors.
    case scene(SceneSpec)
  }

  public var source: Source
  /// The requested session name; `nil` lets the daemon assign one.
  public var session: String?
  public var clock: Clock
  /// Frames per second, in `Limits.fps` (default `Limits.defaultFPS`).
  public var fps: Double
  /// Whether the session outlives the connection that opened it.
  public var keep: Bool
  /// A transition's bounds (`[w, h]` or `[x, y, w, h]`, each side in `Limits.transitionSide`);
  /// nil: the standard 320×568. A scene gives its own, in the scene.
  public var bounds: Rect?
  /// Reduced motion (extension): after a release, a cancel, or a taken tap or swipe, the
  /// session shows where the motion ends rather than the way there; nil: the daemon's default
  /// (`dynd --reduce-motion`, or the desktop's setting).
  public var reduceMotion: Bool?

  public init(
    source: Source, session: String? = nil, clock: Clock = .realtime,
    fps: Double = Limits.defaultFPS, keep: Bool = false, bounds: Rect? = nil,
    reduceMotion: Bool? = nil
  ) {
    self.bounds = bounds
    self.reduceMotion = reduceMotion
    self.source = source
    self.session = session
    self.clock = clock
    self.fps = fps
    self.keep = keep
  }
}

/// How a session's time advances.
public enum Clock: String, CaseIterable, Sendable {
  /// The daemon steps on its own timer and streams frames while the animator runs.
  case realtime
  /// Nothing moves until `step`; output is byte-identical for the same requests.
  case manual
}

extension OpenRequest: OpRequest {
  public static let name = "open"
  public static let fields: [StaticString] = [
    "transition", "scene", "session", "params", "clock", "fps", "keep", "bounds", "reduce_motion",
  ]
  public static let target = OpTarget.daemon
  public static let changesStepCost = false
  /// None: the session it names is its own, new (or assigned by the daemon).
  public var targetSession: String? { nil }

  public static let defaultClock = Clock.realtime
  public static let defaultKeep = false
  public static var defaults: [FieldDefault] {
    [
      FieldDefault("clock", .word(defaultClock.rawValue)),
      FieldDefault("fps", .number(Limits.defaultFPS)), FieldDefault("keep", .bool(defaultKeep)),
    ]
  }

  public static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self {
    let source: OpenRequest.Source
    var bounds: Rect?
    if fields.has("transition") {
      if fields.has("scene") { throw fields.exclusive("scene", with: "transition") }
      let name = try fields.requiredName("transition")
      let params = try fields.object("params", owner: "the transition's params")
      source = .transition(name: name, params: try params.map(TransitionParams.init) ?? .init())
      bounds = try fields.rect("bounds", sides: Limits.transitionSide)
    } else if let scene = try fields.object("scene", owner: "a scene") {
      for key: StaticString in ["params", "bounds"] where fields.has(key) {
        throw ProtocolError(
          .unknownField,
          "field '\(key)' is only defined with 'transition', not with 'scene'"
            + ("\(key)" == "bounds" ? " (a scene gives its bounds in the scene)" : ""))
      }
      source = .scene(try SceneSpec(scene))
    } else {
      throw ProtocolError(
        .missingField, "op 'open' needs field 'transition' (a name) or 'scene' (an object)")
    }
    return Self(
      source: source, session: try fields.name("session"),
      clock: try fields.word("clock", as: Clock.self) ?? defaultClock,
      fps: try fields.number("fps", in: Limits.fps) ?? Limits.defaultFPS,
      keep: try fields.bool("keep") ?? defaultKeep, bounds: bounds,
      reduceMotion: try fields.bool("reduce_motion"))
  }

  public func write(to encoder: inout RequestEncoder) {
    if let session { encoder.word("session", session) }
    switch source {
    case .transition(let name, let params):
      encoder.word("transition", name)
      if !params.isEmpty { encoder.transitionParams(params) }
      if let bounds { encoder.rect("bounds", bounds) }
    case .scene(let scene):
      encoder.key("scene")
      encoder.scene(scene)
    }
    if clock != .realtime { encoder.word("clock", clock.rawValue) }
    if fps != Limits.defaultFPS { encoder.number("fps", fps) }
    if keep { encoder.bool("keep", true) }
    if let reduceMotion { encoder.bool("reduce_motion", reduceMotion) }
  }

  public static func readReply(_ fields: MessageFields) throws(ProtocolError) -> ReplyBody {
    .open(
      session: try fields.string("session"),
      items: try ServerMessageDecoder.itemStates(fields, "items"))
  }
}

extension MessageEncoder {
  /// `open`: `session` and the items with their sizes.
  public mutating func openReply(id: RequestID?, session: String, items: [ItemState]) {
    reply(id: id, [.string("session", session), .items("items", items, size: true)])
  }
}
