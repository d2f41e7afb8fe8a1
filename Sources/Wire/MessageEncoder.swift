import JSON
import Primitives

/// Writes replies and events as JSON lines (each ending in `\n`) into a reusable byte buffer.
///
/// Each call appends one line, so a caller can batch the frames of a `step` and its reply and hand
/// `bytes` to the socket in one write, then `removeAll()`; the buffer keeps its capacity, so in
/// the steady state encoding a frame allocates nothing. Numbers follow protocol/PROTOCOL.md,
/// “4. Values: numbers, names, geometry”: at most 3 decimals for positions, sizes, velocities and
/// times, 6 for angles, angular velocities and transition values, `-0` written `0`. A non-finite
/// number is written `0` and counted in `nonFiniteCount` (not asserted: a diverged simulation
/// must not crash the daemon, but it should be logged).
///
/// Replies: `{"ok":true,"id":…,…}` / `{"ok":false,"id":…,"error":{"code","message"}}`; the `id`
/// is left out when the request had none. Events: `{"ev":…,"session":…,…}`.
public struct MessageEncoder: Sendable {
  private var writer: JSONWriter

  /// Creates an encoder whose buffer starts with room for `capacity` bytes.
  public init(capacity: Int = 16 * 1024) {
    writer = JSONWriter(capacity: capacity)
  }

  /// The encoded lines since the last `removeAll()`.
  public var bytes: [UInt8] { writer.bytes }

  /// Numbers that were not finite and were written as `0`, since creation.
  public var nonFiniteCount: Int { writer.nonFiniteCount }

  /// Empties the buffer, keeping its capacity.
  public mutating func removeAll() {
    writer.bytes.removeAll(keepingCapacity: true)
  }

  /// Calls `body` with the encoded bytes without copying them (e.g. for `evbuffer_add`).
  public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows
    -> Result
  {
    try writer.bytes.withUnsafeBytes(body)
  }

  // MARK: Replies

  /// `{"ok":true,"id":…,<fields>}`.
  public mutating func reply(id: RequestID?, _ fields: [ReplyField] = []) {
    beginReply(id: id, ok: true)
    for field in fields {
      writer.byte(",")
      writer.string(field.name)
      writer.byte(":")
      value(field.value)
    }
    endLine()
  }

  /// `{"ok":false,"id":…,"error":{"code":…,"message":…}}`.
  public mutating func errorReply(id: RequestID?, _ error: ProtocolError) {
    beginReply(id: id, ok: false)
    writer.raw(#","error":{"code":"#)
    writer.string(error.code.rawValue)
    writer.raw(#","message":"#)
    writer.string(error.message)
    writer.byte("}")
    endLine()
  }

  /// The reply to a rejected request.
  public mutating func errorReply(_ rejected: RejectedRequest) {
    errorReply(id: rejected.id, rejected.error)
  }

  // MARK: Events

  /// `frame`: `session`, `seq`, `t`, `items`, and `dropped` (frames coalesced for a slow
  /// reader) and `dropped_contacts` (its contact events left out) when positive, `values` when
  /// not empty.
  public mutating func frame(
    session: String, seq: UInt64, t: Double, items: [ItemState], dropped: Int = 0,
    droppedContacts: Int = 0, values: [NamedValue] = []
  ) {
    beginFrame(session: session, seq: seq, t: t)
    itemStates(items, size: false)
    endFrame(dropped: dropped, droppedContacts: droppedContacts, values: values)
  }

  /// `frame` from any sequence of item states (e.g. a lazy map over the engine's items, so no
  /// array is built). Slower per item than the array form, which the compiler specializes.
  public mutating func frame(
    session: String, seq: UInt64, t: Double, items: some Sequence<ItemState>, dropped: Int = 0,
    values: [NamedValue] = []
  ) {
    beginFrame(session: session, seq: seq, t: t)
    writer.byte("[")
    var first = true
    for item in items {
      if !first { writer.byte(",") }
      first = false
      itemState(item, size: false)
    }
    writer.byte("]")
    endFrame(dropped: dropped, droppedContacts: 0, values: values)
  }

  private mutating func beginFrame(session: String, seq: UInt64, t: Double) {
    beginEvent("frame", session: session)
    writer.raw(#","seq":"#)
    writer.integer(seq)
    writer.raw(#","t":"#)
    writer.number(t, decimals: WireProtocol.timeDecimals)
    writer.raw(#","items":"#)
  }

  private mutating func endFrame(dropped: Int, droppedContacts: Int, values: [NamedValue]) {
    if dropped > 0 {
      writer.raw(#","dropped":"#)
      writer.integer(dropped)
    }
    if droppedContacts > 0 {
      writer.raw(#","dropped_contacts":"#)
      writer.integer(droppedContacts)
    }
    namedValues(values)
    endLine()
  }

  /// `contact`: `phase`, `item`, `with` (an item) or `boundary` (an id or `null`), and
  /// `point` when given (on `began`).
  public mutating func contact(
    session: String, phase: ContactPhase, item: String, partner: ContactPartner,
    point: Point? = nil
  ) {
    beginEvent("contact", session: session)
    writer.raw(#","phase":"#)
    writer.string(phase.rawValue)
    writer.raw(#","item":"#)
    writer.string(item)
    switch partner {
    case .item(let other):
      writer.raw(#","with":"#)
      writer.string(other)
    case .boundary(let boundary?):
      writer.raw(#","boundary":"#)
      writer.string(boundary)
    case .boundary(nil):
      writer.raw(#","boundary":null"#)
    }
    if let point {
      writer.raw(#","point":"#)
      writer.pair(point.x, point.y, decimals: WireProtocol.linearDecimals)
    }
    endLine()
  }

  /// `pause`: the animator came to rest at `t`.
  public mutating func pause(session: String, t: Double) {
    timeEvent("pause", session: session, t: t)
  }

  /// `resume`: the animator started running again at `t`.
  public mutating func resume(session: String, t: Double) {
    timeEvent("resume", session: session, t: t)
  }

  /// `handoff`: the finger's release velocity, the velocity the item moves with, the
  /// constraints that made them differ (omitted when none did), `velocity_error`, the
  /// unrounded difference left (6 decimals), and how dynd estimated the finger's velocity
  /// (`estimate`, omitted when the client gave it); then, each only when present, where the
  /// item comes to rest (`projection`), the `decay` that stops it there, a sheet's `detent` and
  /// the `spring` that carries it.
  public mutating func handoff(
    session: String, item: String, gestureVelocity: Vector, itemVelocity: Vector,
    constraints: [MotionConstraint] = [], velocityError: Double = 0,
    estimate: ReleaseEstimate? = nil, projection: Point? = nil, decay: DecayModel? = nil,
    detent: String? = nil, spring: SpringParameters? = nil
  ) {
    beginEvent("handoff", session: session)
    writer.raw(#","item":"#)
    writer.string(item)
    writer.raw(#","gesture_velocity":"#)
    writer.pair(gestureVelocity.dx, gestureVelocity.dy, decimals: WireProtocol.linearDecimals)
    writer.raw(#","item_velocity":"#)
    writer.pair(itemVelocity.dx, itemVelocity.dy, decimals: WireProtocol.linearDecimals)
    if !constraints.isEmpty {
      writer.raw(#","constraints":["#)
      for (i, constraint) in constraints.enumerated() {
        if i > 0 { writer.byte(",") }
        writer.raw(#"{"kind":"#)
        writer.string(constraint.kind)
        switch constraint {
        case .rail(let axis):
          writer.raw(#","axis":"#)
          writer.pair(axis.dx, axis.dy, decimals: WireProtocol.angularDecimals)
        case .anchored:
          break
        case .speedLimit(let maxSpeed):
          writer.raw(#","max_speed":"#)
          writer.number(maxSpeed, decimals: WireProtocol.linearDecimals)
        }
        writer.byte("}")
      }
      writer.byte("]")
    }
    writer.raw(#","velocity_error":"#)
    writer.number(velocityError, decimals: WireProtocol.angularDecimals)
    if let estimate {
      writer.raw(#","estimate":{"reason":"#)
      writer.string(estimate.reason.rawValue)
      writer.raw(#","samples":"#)
      writer.integer(estimate.samples)
      if let still = estimate.stillMilliseconds {
        writer.raw(#","still_ms":"#)
        writer.number(still, decimals: WireProtocol.linearDecimals)
      }
      if let gap = estimate.gapMilliseconds {
        writer.raw(#","gap_ms":"#)
        writer.number(gap, decimals: WireProtocol.linearDecimals)
      }
      writer.byte("}")
    }
    if let projection {
      writer.raw(#","projection":"#)
      writer.pair(projection.x, projection.y, decimals: WireProtocol.linearDecimals)
    }
    if let decay {
      writer.raw(#","decay":{"#)
      writer.string(decay.parameter.field.rawValue)
      writer.byte(":")
      writer.number(decay.parameter.value, decimals: WireProtocol.angularDecimals)
      writer.byte("}")
    }
    if let detent {
      writer.raw(#","detent":"#)
      writer.string(detent)
    }
    if let spring {
      writer.raw(#","spring":{"#)
      for (i, (name, value)) in spring.reportedValues.enumerated() {
        if i > 0 { writer.byte(",") }
        writer.string(name)
        writer.byte(":")
        writer.number(value, decimals: WireProtocol.angularDecimals)
      }
      writer.byte("}")
    }
    endLine()
  }

  /// `done`: the transition's `outcome`, and `values` when not empty.
  public mutating func done(session: String, outcome: String, values: [NamedValue] = []) {
    beginEvent("done", session: session)
    writer.raw(#","outcome":"#)
    writer.string(outcome)
    namedValues(values)
    endLine()
  }

  /// `debug`: the geometry of a session's behaviors after frame `seq` (see `PROTOCOL.md`).
  public mutating func debug(session: String, seq: UInt64, t: Double, _ fields: [ReplyField]) {
    beginEvent("debug", session: session)
    writer.raw(#","seq":"#)
    writer.integer(seq)
    writer.raw(#","t":"#)
    writer.number(t, decimals: WireProtocol.timeDecimals)
    for field in fields {
      writer.byte(",")
      writer.string(field.name)
      writer.byte(":")
      value(field.value)
    }
    endLine()
  }

  /// `closed`: the session is gone (`reason`: `closed` by a request, `owner_left` when the
  /// connection that opened it without `keep` went away, `idle` when reaped). Sent to its
  /// watchers, so none waits for frames that will never come.
  public mutating func closed(session: String, reason: String) {
    beginEvent("closed", session: session)
    writer.raw(#","reason":"#)
    writer.string(reason)
    endLine()
  }

  /// `shutdown`: the daemon is stopping; `reason` when given (e.g. "SIGTERM").
  public mutating func shutdown(reason: String? = nil) {
    writer.raw(#"{"ev":"shutdown""#)
    if let reason {
      writer.raw(#","reason":"#)
      writer.string(reason)
    }
    endLine()
  }

  /// `slow`: the session's frames cost more than its frame period, so it is stepped at the
  /// rate its cost allows (each frame still advances 1/fps: it moves in slow motion).
  /// `frame_ms` is what its last frame cost, `budget_ms` the period.
  public mutating func slow(
    session: String, t: Double, frameMilliseconds: Double, budgetMilliseconds: Double
  ) {
    beginEvent("slow", session: session)
    writer.raw(#","t":"#)
    writer.number(t, decimals: WireProtocol.timeDecimals)
    writer.raw(#","frame_ms":"#)
    writer.number(frameMilliseconds, decimals: WireProtocol.linearDecimals)
    writer.raw(#","budget_ms":"#)
    writer.number(budgetMilliseconds, decimals: WireProtocol.linearDecimals)
    endLine()
  }

  /// `on_time`: a `slow` session keeps up with its frame period again.
  public mutating func onTime(session: String, t: Double) {
    timeEvent("on_time", session: session, t: t)
  }

  /// `contact_limit`: the session's world holds `limit` contacts, so further overlapping pairs
  /// pass through each other until some end. Sent once per session.
  public mutating func contactLimit(session: String, t: Double, limit: Int) {
    beginEvent("contact_limit", session: session)
    writer.raw(#","t":"#)
    writer.number(t, decimals: WireProtocol.timeDecimals)
    writer.raw(#","limit":"#)
    writer.integer(limit)
    endLine()
  }

  /// `action` (extension): `seq` and `t` of the step whose rule fired, the `behavior`, the
  /// `name` emitted, and the `item` the rule watches (`null` for `always`).
  public mutating func action(
    session: String, seq: UInt64, t: Double, behavior: String, name: String, item: String?
  ) {
    beginEvent("action", session: session)
    writer.raw(#","seq":"#)
    writer.integer(seq)
    writer.raw(#","t":"#)
    writer.number(t, decimals: WireProtocol.timeDecimals)
    writer.raw(#","behavior":"#)
    writer.string(behavior)
    writer.raw(#","name":"#)
    writer.string(name)
    if let item {
      writer.raw(#","item":"#)
      writer.string(item)
    } else {
      writer.raw(#","item":null"#)
    }
    endLine()
  }

  // MARK: Pieces

  private mutating func beginReply(id: RequestID?, ok: Bool) {
    writer.raw(ok ? #"{"ok":true"# : #"{"ok":false"#)
    switch id {
    case .string(let text)?:
      writer.raw(#","id":"#)
      writer.string(text)
    case .number(let text)?:
      // The text came out of the strict number check, so it is valid JSON as is.
      writer.raw(#","id":"#)
      writer.bytes.append(contentsOf: text.utf8)
    case nil:
      break
    }
  }

  private mutating func beginEvent(_ name: StaticString, session: String) {
    writer.raw(#"{"ev":""#)
    writer.raw(name)
    writer.raw(#"","session":"#)
    writer.string(session)
  }

  private mutating func timeEvent(_ name: StaticString, session: String, t: Double) {
    beginEvent(name, session: session)
    writer.raw(#","t":"#)
    writer.number(t, decimals: WireProtocol.timeDecimals)
    endLine()
  }

  private mutating func endLine() {
    writer.raw("}\n")
  }

  private mutating func itemStates(_ items: [ItemState], size: Bool, shape: Bool = false) {
    writer.byte("[")
    for index in items.indices {
      if index > 0 { writer.byte(",") }
      itemState(items[index], size: size, shape: shape)
    }
    writer.byte("]")
  }

  private mutating func itemState(_ item: ItemState, size: Bool, shape: Bool = false) {
    writer.raw(#"{"id":"#)
    writer.string(item.id)
    writer.raw(#","center":"#)
    writer.pair(item.center.x, item.center.y, decimals: WireProtocol.linearDecimals)
    writer.raw(#","angle":"#)
    writer.number(item.angle, decimals: WireProtocol.angularDecimals)
    writer.raw(#","velocity":"#)
    writer.pair(item.velocity.dx, item.velocity.dy, decimals: WireProtocol.linearDecimals)
    writer.raw(#","angular_velocity":"#)
    writer.number(item.angularVelocity, decimals: WireProtocol.angularDecimals)
    if size {
      writer.raw(#","size":"#)
      writer.pair(item.size.width, item.size.height, decimals: WireProtocol.linearDecimals)
    }
    if shape { itemShape(item.shape) }
    writer.byte("}")
  }

  /// `,"shape":…` as an item spec gives it (`path` relative to the center); nothing for a
  /// rectangle, the default.
  private mutating func itemShape(_ shape: ItemShape) {
    switch shape {
    case .rectangle:
      break
    case .ellipse:
      writer.raw(#","shape":"ellipse""#)
    case .path(let points):
      writer.raw(#","shape":"path","path":["#)
      for (index, point) in points.enumerated() {
        if index > 0 { writer.byte(",") }
        writer.pair(point.x, point.y, decimals: WireProtocol.linearDecimals)
      }
      writer.byte("]")
    }
  }

  private mutating func namedValues(_ values: [NamedValue]) {
    guard !values.isEmpty else { return }
    writer.raw(#","values":{"#)
    for (index, entry) in values.enumerated() {
      if index > 0 { writer.byte(",") }
      writer.string(entry.name)
      writer.byte(":")
      writer.number(entry.value, decimals: WireProtocol.angularDecimals)
    }
    writer.byte("}")
  }

  /// Appends one value (no line end).
  mutating func value(_ value: ReplyValue) {
    switch value {
    case .null: writer.raw("null")
    case .bool(let flag): writer.bool(flag)
    case .integer(let number): writer.integer(number)
    case .number(let number, let decimals): writer.number(number, decimals: decimals)
    case .string(let text): writer.string(text)
    case .strings(let texts):
      writer.byte("[")
      for (index, text) in texts.enumerated() {
        if index > 0 { writer.byte(",") }
        writer.string(text)
      }
      writer.byte("]")
    case .items(let states, let size, let shape): itemStates(states, size: size, shape: shape)
    case .array(let elements):
      writer.byte("[")
      for (index, element) in elements.enumerated() {
        if index > 0 { writer.byte(",") }
        self.value(element)
      }
      writer.byte("]")
    case .object(let fields):
      writer.byte("{")
      for (index, field) in fields.enumerated() {
        if index > 0 { writer.byte(",") }
        writer.string(field.name)
        writer.byte(":")
        self.value(field.value)
      }
      writer.byte("}")
    case .encoded(let text): writer.bytes.append(contentsOf: text)
    }
  }

  /// One value alone, as JSON text (for `ReplyValue.encoded`).
  static func text(of value: ReplyValue) -> [UInt8] {
    var encoder = MessageEncoder(capacity: 8 * 1024)
    encoder.value(value)
    return encoder.bytes
  }
}
