import Primitives

/// One decoded request line: the client's `id` and the operation it asks for.
public struct Request: Equatable, Sendable {
  /// The request's `id`, echoed in the reply; `nil` when the request has none.
  public var id: RequestID?
  /// The operation and its fields.
  public var op: Op

  public init(id: RequestID?, op: Op) {
    self.id = id
    self.op = op
  }
}

/// A request `id` as sent: a string, or a number kept as its JSON text so that the reply echoes
/// it unchanged (`1e2` stays `1e2`; the one exception is an integer `-0`, echoed as `0`).
public enum RequestID: Hashable, Sendable {
  case string(String)
  /// The number's JSON text, e.g. `7`, `1e2`, `2.50`.
  case number(String)
}

/// A request that could not be decoded: the error to reply with, and the id to echo if the line
/// got far enough to have a valid one.
public struct RejectedRequest: Error, Equatable, Sendable {
  public var id: RequestID?
  public var error: ProtocolError

  public init(id: RequestID?, error: ProtocolError) {
    self.id = id
    self.error = error
  }
}

/// The operations of protocol version 1, one case per `op`.
public enum Op: Equatable, Sendable {
  /// `hello`: the daemon describes itself.
  case hello
  /// `open`: start a session from a transition or a scene.
  case open(OpenRequest)
  /// `gesture`: one sample of a pan.
  case gesture(GestureRequest)
  /// `tap`: a tap at a point.
  case tap(TapRequest)
  /// `swipe`: a swipe in a direction.
  case swipe(SwipeRequest)
  /// `step`: advance a manual-clock session.
  case step(StepRequest)
  /// `get`: the session's time, running state and items.
  case get(session: String)
  /// `watch`: also send this session's events to this connection.
  case watch(session: String)
  /// `debug`: with each frame of the session this connection receives, also send the behaviors
  /// as geometry (or stop, with `enable` false).
  case debug(session: String, enable: Bool)
  /// `close`: end the session.
  case close(session: String)
  /// `list`: the open sessions, a page at a time.
  case list(ListRequest)
  /// `add_item`: add an item to a scene session.
  case addItem(session: String, item: ItemSpec)
  /// `remove_item`: remove an item by id.
  case removeItem(session: String, item: String)
  /// `add_behavior`: add a behavior; the reply carries its id.
  case addBehavior(session: String, behavior: BehaviorSpec)
  /// `remove_behavior`: remove a behavior by id.
  case removeBehavior(session: String, behavior: String)
  /// `remove_all_behaviors`: remove every behavior.
  case removeAllBehaviors(session: String)
  /// `set_behavior`: change settable fields of a behavior.
  case setBehavior(SetBehaviorRequest)
  /// `set_item`: move or turn an item (the animator re-reads its state).
  case setItem(SetItemRequest)
  /// `add_velocity`: add linear and angular velocity to an item.
  case addVelocity(AddVelocityRequest)
  /// `behaviors` (extension): a scene's behaviors, each with the current value of every field
  /// `set_behavior` can set.
  case behaviors(session: String)
  /// `add_group` (extension): add an item group; its members move as one rigid body from then on.
  case addGroup(session: String, group: GroupSpec)
  /// `remove_group` (extension): remove an item group by id; its members move on their own.
  case removeGroup(session: String, group: String)
  /// `items_in_rect` (extension): the ids of the items whose frames meet `rect` `[x, y, w, h]`
  /// (UIDynamicAnimator itemsInRect:; `w`, `h` in `Limits.selectionSide`).
  case itemsInRect(session: String, rect: Rect)
  /// `set_bounds` (extension): new reference bounds, `[w, h]` or `[x, y, w, h]` as a scene's.
  /// `null` removes them (an animator without reference bounds).
  case setBounds(session: String, bounds: Rect?)

  /// The `op` word on the wire (`OpName` is the one list of them).
  public var name: String { kind.rawValue }

  /// Which operation this is, without its fields.
  public var kind: OpName {
    switch self {
    case .hello: return .hello
    case .open: return .open
    case .gesture: return .gesture
    case .tap: return .tap
    case .swipe: return .swipe
    case .step: return .step
    case .get: return .get
    case .watch: return .watch
    case .debug: return .debug
    case .close: return .close
    case .list: return .list
    case .addItem: return .addItem
    case .removeItem: return .removeItem
    case .addBehavior: return .addBehavior
    case .removeBehavior: return .removeBehavior
    case .removeAllBehaviors: return .removeAllBehaviors
    case .setBehavior: return .setBehavior
    case .setItem: return .setItem
    case .addVelocity: return .addVelocity
    case .behaviors: return .behaviors
    case .addGroup: return .addGroup
    case .removeGroup: return .removeGroup
    case .itemsInRect: return .itemsInRect
    case .setBounds: return .setBounds
    }
  }

  /// The session the operation addresses (`nil` for `hello`, `list`, and `open`, whose session
  /// may be assigned by the daemon).
  public var session: String? {
    switch self {
    case .hello, .list, .open: return nil
    case .gesture(let request): return request.session
    case .tap(let request): return request.session
    case .swipe(let request): return request.session
    case .step(let request): return request.session
    case .debug(let session, _): return session
    case .get(let session), .watch(let session), .close(let session),
      .removeAllBehaviors(let session), .behaviors(let session):
      return session
    case .addItem(let session, _), .removeItem(let session, _), .addBehavior(let session, _),
      .removeBehavior(let session, _), .addGroup(let session, _), .removeGroup(let session, _),
      .itemsInRect(let session, _), .setBounds(let session, _):
      return session
    case .setBehavior(let request): return request.session
    case .setItem(let request): return request.session
    case .addVelocity(let request): return request.session
    }
  }
}

/// The `op` words of protocol version 1, and the one place they are spelt.
///
/// `Op.kind` gives a request's word, `RequestDecoder` dispatches on it (and suggests the closest
/// one for a misspelt op, so the order of the cases decides ties), `RequestEncoder` writes it,
/// and `ServerMessageDecoder` uses it to read the reply to a request of that op. Each op's
/// fields, reader, writer and reply live in its own file beside this one (`Ops/<Op>.swift`);
/// the tables below send each word to them.
public enum OpName: String, CaseIterable, Sendable {
  case hello, open, gesture, tap, swipe, step, get, watch, close, list, debug
  case addItem = "add_item"
  case removeItem = "remove_item"
  case addBehavior = "add_behavior"
  case removeBehavior = "remove_behavior"
  case removeAllBehaviors = "remove_all_behaviors"
  case setBehavior = "set_behavior"
  case setItem = "set_item"
  case addVelocity = "add_velocity"
  /// Extension: a scene's behaviors with their current values.
  case behaviors
  /// Extension: add an item group (UIDynamicItemGroup) to a scene.
  case addGroup = "add_group"
  /// Extension: remove an item group.
  case removeGroup = "remove_group"
  /// Extension: the items whose frames meet a rectangle (UIDynamicAnimator itemsInRect:).
  case itemsInRect = "items_in_rect"
  /// Extension: change a scene's reference bounds.
  case setBounds = "set_bounds"
}

// MARK: The ops' files, by word

extension OpName {
  /// Every field the op defines, including `op` and `id`.
  var fields: [StaticString] { Self.fieldTable[self] ?? [] }

  /// The field lists, built once rather than on every request.
  private static let fieldTable: [OpName: [StaticString]] = Dictionary(
    uniqueKeysWithValues: allCases.map { ($0, ["op", "id"] + $0.definedFields) })

  private var definedFields: [StaticString] {
    switch self {
    case .hello: return HelloOp.fields
    case .open: return OpenOp.fields
    case .gesture: return GestureOp.fields
    case .tap: return TapOp.fields
    case .swipe: return SwipeOp.fields
    case .step: return StepOp.fields
    case .get: return GetOp.fields
    case .watch: return WatchOp.fields
    case .close: return CloseOp.fields
    case .list: return ListOp.fields
    case .debug: return DebugOp.fields
    case .addItem: return AddItemOp.fields
    case .removeItem: return RemoveItemOp.fields
    case .addBehavior: return AddBehaviorOp.fields
    case .removeBehavior: return RemoveBehaviorOp.fields
    case .removeAllBehaviors: return RemoveAllBehaviorsOp.fields
    case .setBehavior: return SetBehaviorOp.fields
    case .setItem: return SetItemOp.fields
    case .addVelocity: return AddVelocityOp.fields
    case .behaviors: return BehaviorsOp.fields
    case .addGroup: return AddGroupOp.fields
    case .removeGroup: return RemoveGroupOp.fields
    case .itemsInRect: return ItemsInRectOp.fields
    case .setBounds: return SetBoundsOp.fields
    }
  }

  /// Reads the op's fields (unknown names already refused).
  func read(_ fields: ObjectReader) throws(ProtocolError) -> Op {
    switch self {
    case .hello: return try HelloOp.read(fields)
    case .open: return try OpenOp.read(fields)
    case .gesture: return try GestureOp.read(fields)
    case .tap: return try TapOp.read(fields)
    case .swipe: return try SwipeOp.read(fields)
    case .step: return try StepOp.read(fields)
    case .get: return try GetOp.read(fields)
    case .watch: return try WatchOp.read(fields)
    case .close: return try CloseOp.read(fields)
    case .list: return try ListOp.read(fields)
    case .debug: return try DebugOp.read(fields)
    case .addItem: return try AddItemOp.read(fields)
    case .removeItem: return try RemoveItemOp.read(fields)
    case .addBehavior: return try AddBehaviorOp.read(fields)
    case .removeBehavior: return try RemoveBehaviorOp.read(fields)
    case .removeAllBehaviors: return try RemoveAllBehaviorsOp.read(fields)
    case .setBehavior: return try SetBehaviorOp.read(fields)
    case .setItem: return try SetItemOp.read(fields)
    case .addVelocity: return try AddVelocityOp.read(fields)
    case .behaviors: return try BehaviorsOp.read(fields)
    case .addGroup: return try AddGroupOp.read(fields)
    case .removeGroup: return try RemoveGroupOp.read(fields)
    case .itemsInRect: return try ItemsInRectOp.read(fields)
    case .setBounds: return try SetBoundsOp.read(fields)
    }
  }

  /// Reads a successful reply to a request of this op (a client's side).
  func readReply(_ fields: MessageFields) throws(ProtocolError) -> ReplyBody {
    switch self {
    case .hello: return try HelloOp.readReply(fields)
    case .open: return try OpenOp.readReply(fields)
    case .step: return try StepOp.readReply(fields)
    case .get: return try GetOp.readReply(fields)
    case .watch: return try WatchOp.readReply(fields)
    case .list: return try ListOp.readReply(fields)
    case .debug: return try DebugOp.readReply(fields)
    case .tap, .swipe: return try TapOp.readReply(fields)
    case .addBehavior: return try AddBehaviorOp.readReply(fields)
    case .behaviors: return try BehaviorsOp.readReply(fields)
    case .itemsInRect: return try ItemsInRectOp.readReply(fields)
    case .gesture, .close, .addItem, .removeItem, .removeBehavior, .removeAllBehaviors,
      .setBehavior, .setItem, .addVelocity, .addGroup, .removeGroup, .setBounds:
      return .empty
    }
  }
}

extension RequestEncoder {
  /// Writes the op's fields after `op` and `id`: `session` first, then the op's own.
  mutating func fields(of op: Op) {
    if let session = op.session { word("session", session) }
    switch op {
    case .hello, .get, .watch, .close, .removeAllBehaviors, .behaviors: break
    case .list(let list): ListOp.write(list, to: &self)
    case .open(let open): OpenOp.write(open, to: &self)
    case .gesture(let gesture): GestureOp.write(gesture, to: &self)
    case .tap(let tap): TapOp.write(tap, to: &self)
    case .swipe(let swipe): SwipeOp.write(swipe, to: &self)
    case .step(let step): StepOp.write(step, to: &self)
    case .debug(_, let enable): DebugOp.write(enable: enable, to: &self)
    case .addItem(_, let item): AddItemOp.write(item, to: &self)
    case .removeItem(_, let item): RemoveItemOp.write(item: item, to: &self)
    case .addBehavior(_, let behavior): AddBehaviorOp.write(behavior, to: &self)
    case .removeBehavior(_, let behavior): RemoveBehaviorOp.write(behavior: behavior, to: &self)
    case .setBehavior(let set): SetBehaviorOp.write(set, to: &self)
    case .setItem(let set): SetItemOp.write(set, to: &self)
    case .addVelocity(let add): AddVelocityOp.write(add, to: &self)
    case .addGroup(_, let group): AddGroupOp.write(group, to: &self)
    case .removeGroup(_, let group): RemoveGroupOp.write(group: group, to: &self)
    case .itemsInRect(_, let rect): ItemsInRectOp.write(rect, to: &self)
    case .setBounds(_, let bounds): SetBoundsOp.write(bounds, to: &self)
    }
  }
}
