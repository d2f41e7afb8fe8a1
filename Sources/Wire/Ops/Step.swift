/// `step`: advance a manual session by `count` frames of `dt` seconds.
public struct StepRequest: Equatable, Sendable {
  public var session: String
  /// Seconds per frame, in `Limits.stepDuration`; `nil` means 1/fps of the session.
  public var dt: Double?
  /// Frames to run, in `Limits.stepCount` (default 1).
  public var count: Int

  public init(session: String, dt: Double? = nil, count: Int = 1) {
    self.session = session
    self.dt = dt
    self.count = count
  }

  /// Seconds of animator time the request covers in a session running at `fps`.
  public func span(fps: Double) -> Double {
    (dt ?? 1 / fps) * Double(count)
  }

  /// Throws `out_of_range` when the request covers more than `Limits.maxStepSpan` seconds. The
  /// decoder checks this when `dt` is given; without `dt` only the session knows its fps, so the
  /// daemon calls this before stepping.
  public func check(fps: Double) throws(ProtocolError) {
    let span = span(fps: fps)
    guard span <= Limits.maxStepSpan else {
      throw ProtocolError(
        .outOfRange,
        "a step of count × dt = \(plainNumber(span)) s is longer than the limit of "
          + "\(plainNumber(Limits.maxStepSpan)) s per request")
    }
  }
}

/// The reply carries `t` and `running` after the last frame.
extension StepRequest: SessionOpRequest {
  public static let name = "step"
  public static let fields: [StaticString] = ["session", "dt", "count"]
  public static let target = OpTarget.session
  public static let changesStepCost = false

  public static let defaultCount = 1
  /// `dt`'s default is the session's frame period, 1/fps: not a constant.
  public static var defaults: [FieldDefault] {
    [FieldDefault("count", .number(Double(defaultCount)))]
  }

  public static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self {
    let step = Self(
      session: try fields.requiredName("session"),
      dt: try fields.number("dt", in: Limits.stepDuration),
      count: try fields.integer("count", in: Limits.stepCount) ?? defaultCount)
    if step.dt != nil { try step.check(fps: Limits.defaultFPS) }
    return step
  }

  public func write(to encoder: inout RequestEncoder) {
    encoder.number("dt", dt)
    if count != 1 { encoder.integer("count", count) }
  }

  public static func readReply(_ fields: MessageFields) throws(ProtocolError) -> ReplyBody {
    .step(t: try fields.number("t"), running: try fields.bool("running"))
  }
}

extension MessageEncoder {
  /// `step`: `t` and `running`.
  public mutating func stepReply(id: RequestID?, t: Double, running: Bool) {
    reply(
      id: id, [.number("t", t, decimals: WireProtocol.timeDecimals), .bool("running", running)])
  }
}

extension Limits {
  /// `dt` of one `step`, in seconds: positive, and short enough that a single request cannot
  /// keep the daemon busy for long (10 s at the internal fixed step is a bounded number of steps).
  public static let stepDuration = NumberRange.above(0, upTo: 10)
  /// `count` of one `step`: at least one, at most 100 000 frames per request.
  public static let stepCount = 1...100_000
  /// Animator time one `step` may cover, `count × dt`, in seconds. The daemon runs on one thread,
  /// so a single request must not simulate for long: 600 s is 72 000 internal steps at 120 Hz.
  public static let maxStepSpan = 600.0
}
