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

  public init(id: RequestID?, op: some OpRequest) {
    self.init(id: id, op: Op(op))
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

/// One op of the protocol, declared once by its request type: its word, its fields, what it
/// addresses, whether it may change what a step of its session costs, how a request is read and
/// written, and how its reply is read. `Op.registry` lists the types, and everything else works
/// from that list: `RequestDecoder` finds an op by its word, `RequestEncoder` writes any op,
/// `ServerMessageDecoder` reads a reply as its op's, the host runs each op by its own file
/// (SessionHost's `HostedOp`), and `dynctl describe-protocol` lists them. Adding an op is its
/// file here (`Ops/<Op>.swift`), one in each layer that has ops, and its line in the registry.
public protocol OpRequest: Equatable, Sendable {
  /// The `op` word on the wire.
  static var name: String { get }
  /// The fields the op defines besides `op` and `id`; any other is `unknown_field`.
  static var fields: [StaticString] { get }
  /// What the request addresses: the daemon, or a session of a kind.
  static var target: OpTarget { get }
  /// Whether running it may change what an internal step of its session costs (items,
  /// behaviors, groups, bounds): the host no longer trusts the session's measured cost after it.
  static var changesStepCost: Bool { get }
  /// Reads the op's fields (unknown names already refused).
  static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self
  /// Reads a successful reply to a request of this op (a client's side).
  static func readReply(_ fields: MessageFields) throws(ProtocolError) -> ReplyBody
  /// The session the request names (nil when `target` is `.daemon`).
  var targetSession: String? { get }
  /// Writes the op's own fields, after `op`, `id` and `session`.
  func write(to encoder: inout RequestEncoder)
  /// The value of each optional field the op gives one to when a request leaves it out, as
  /// `read` applies it (each a constant `read` uses).
  static var defaults: [FieldDefault] { get }
}

/// A field's value when a request leaves it out (`dynctl describe-protocol` lists them).
public struct FieldDefault: Sendable {
  public enum Value: Sendable, Equatable {
    case bool(Bool)
    case number(Double)
    case word(String)
  }

  public let field: String
  public let value: Value

  public init(_ field: String, _ value: Value) {
    self.field = field
    self.value = value
  }
}

extension OpRequest {
  /// No field has a default.
  public static var defaults: [FieldDefault] { [] }

  /// No reply fields: the reply is `{"ok":true}` with the request's `id`.
  public static func readReply(_ fields: MessageFields) throws(ProtocolError) -> ReplyBody {
    .empty
  }
}

/// An op whose request names a session: every op whose target is not `.daemon`.
public protocol SessionOpRequest: OpRequest {
  var session: String { get }
}

extension SessionOpRequest {
  public var targetSession: String? { session }
}

/// An op whose one field is `session` (`get`, `watch`, `close`, `behaviors`,
/// `remove_all_behaviors`): its fields, reading and writing, defined once.
public protocol SessionOnlyOpRequest: SessionOpRequest {
  init(session: String)
}

extension SessionOnlyOpRequest {
  public static var fields: [StaticString] { ["session"] }

  public static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self {
    Self(session: try fields.requiredName("session"))
  }

  public func write(to encoder: inout RequestEncoder) {}
}

/// What a request addresses, which the host checks before it runs the op.
public enum OpTarget: String, Sendable, CaseIterable {
  /// The daemon itself (`hello`, `list`), or a session it may name (`open`).
  case daemon
  /// A session of either kind.
  case session
  /// A session opened with a transition (`gesture`, `tap`, `swipe`).
  case transition
  /// A session opened with a scene (the scene ops).
  case scene
}

/// The request of one op, whichever it is: the `OpRequest` of the op named by `op`.
public struct Op: Equatable, Sendable {
  /// The op's request, as its own type (`op.request as? GestureRequest`).
  public let request: any OpRequest

  public init(_ request: some OpRequest) { self.request = request }

  /// The `op` word on the wire.
  public var name: String { kind.name }

  /// Which operation this is: its request type.
  public var kind: any OpRequest.Type { type(of: request) }

  /// The session the operation addresses (`nil` for `hello`, `list`, and `open`, whose session
  /// may be assigned by the daemon).
  public var session: String? { request.targetSession }

  public static func == (a: Op, b: Op) -> Bool { a.request.isEqual(to: b.request) }

  /// Every op, in the order `unknown_op` suggestions break ties in: one line per op.
  public static let registry: [any OpRequest.Type] = [
    HelloRequest.self, OpenRequest.self, GestureRequest.self, TapRequest.self,
    SwipeRequest.self, StepRequest.self, GetRequest.self, WatchRequest.self, CloseRequest.self,
    ListRequest.self, DebugRequest.self, AddItemRequest.self, RemoveItemRequest.self,
    AddBehaviorRequest.self, RemoveBehaviorRequest.self, RemoveAllBehaviorsRequest.self,
    SetBehaviorRequest.self, SetItemRequest.self, AddVelocityRequest.self,
    BehaviorsRequest.self, AddGroupRequest.self, RemoveGroupRequest.self,
    ItemsInRectRequest.self, SetBoundsRequest.self, DefineRequest.self,
  ]

  /// What the decoder needs of an op: its fields with `op` and `id`, and its reader.
  struct Entry: Sendable {
    let type: any OpRequest.Type
    let fields: [StaticString]
    let read: @Sendable (ObjectReader) throws(ProtocolError) -> Op

    init<Request: OpRequest>(_ type: Request.Type) {
      self.type = type
      fields = ["op", "id"] + type.fields
      read = { (reader) throws(ProtocolError) in Op(try Request.read(reader)) }
    }
  }

  /// The entry of each word, built once.
  static let byName: [String: Entry] = Dictionary(
    uniqueKeysWithValues: registry.map { ($0.name, Entry($0)) })

  /// The op type of `word`, or nil when no op has it.
  public static func named(_ word: String) -> (any OpRequest.Type)? { byName[word]?.type }
}

extension OpRequest {
  /// Whether `other` is a request of the same op with the same fields.
  func isEqual(to other: any OpRequest) -> Bool { (other as? Self) == self }
}

extension RequestEncoder {
  /// Writes the op's fields after `op` and `id`: `session` first, then the op's own.
  mutating func fields(of op: Op) {
    if let session = op.session { word("session", session) }
    op.request.write(to: &self)
  }
}
