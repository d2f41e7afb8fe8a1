import Primitives

/// A session's behaviors as geometry, DynamicXray-style: the body of the `debug` reply and
/// event (protocol/PROTOCOL.md, “debug”). Every point is in reference coordinates.
public struct DebugGeometry: Equatable, Sendable {
  public var boundaries: [Boundary] = []
  public var attachments: [Attachment] = []
  public var snaps: [Snap] = []
  public var pushes: [Push] = []
  public var gravity: [Gravity] = []
  /// The touching pairs now.
  public var contacts: [Touch] = []

  public init() {}

  /// A collision boundary: a polyline `{id, points}` (a segment has two points), or the
  /// reference bounds of a collision behavior after insets, `{id: null, rect}`.
  public enum Boundary: Equatable, Sendable {
    case path(id: String, points: [Point])
    case referenceBounds(Rect)
  }

  /// `{kind, item, item_point, to, to_point, spring, length}`: `to` is the other item, or nil
  /// for an anchor; `spring` is true when the attachment has a frequency.
  public struct Attachment: Equatable, Sendable {
    public var kind: String
    public var item: String
    public var itemPoint: Point
    public var to: String?
    public var toPoint: Point
    public var spring: Bool
    public var length: Double
    public init(
      kind: String, item: String, itemPoint: Point, to: String?, toPoint: Point, spring: Bool,
      length: Double
    ) {
      self.kind = kind
      self.item = item
      self.itemPoint = itemPoint
      self.to = to
      self.toPoint = toPoint
      self.spring = spring
      self.length = length
    }
  }

  /// `{item, point}`.
  public struct Snap: Equatable, Sendable {
    public var item: String
    public var point: Point
    public init(item: String, point: Point) {
      self.item = item
      self.point = point
    }
  }

  /// `{items, mode, vector, active}`.
  public struct Push: Equatable, Sendable {
    public var items: [String]
    public var mode: String
    public var vector: Vector
    public var active: Bool
    public init(items: [String], mode: String, vector: Vector, active: Bool) {
      self.items = items
      self.mode = mode
      self.vector = vector
      self.active = active
    }
  }

  /// `{items, vector}`, the vector in UIKit units (magnitude 1 = 1000 pt/s²).
  public struct Gravity: Equatable, Sendable {
    public var items: [String]
    public var vector: Vector
    public init(items: [String], vector: Vector) {
      self.items = items
      self.vector = vector
    }
  }

  /// `{item, with | boundary, point}`.
  public struct Touch: Equatable, Sendable {
    public var item: String
    public var partner: ContactPartner
    public var point: Point?
    public init(item: String, partner: ContactPartner, point: Point?) {
      self.item = item
      self.partner = partner
      self.point = point
    }
  }
}

extension DebugGeometry {
  /// The geometry as the JSON object the daemon writes for it (the `debug` reply's member).
  public var jsonText: String {
    var encoder = MessageEncoder(capacity: 1024)
    encoder.value(.object(fields))
    return String(decoding: encoder.bytes, as: UTF8.self)
  }

  /// The fields as written on the wire, in the protocol's order.
  var fields: [ReplyField] {
    [
      ReplyField("boundaries", .array(boundaries.map(\.value))),
      ReplyField("attachments", .array(attachments.map(\.value))),
      ReplyField("snaps", .array(snaps.map(\.value))),
      ReplyField("pushes", .array(pushes.map(\.value))),
      ReplyField("gravity", .array(gravity.map(\.value))),
      ReplyField("contacts", .array(contacts.map(\.value))),
    ]
  }
}

private func n(_ v: Double) -> ReplyValue { .number(v, decimals: WireProtocol.linearDecimals) }
private func pair(_ p: Point) -> ReplyValue { .array([n(p.x), n(p.y)]) }
private func pair(_ v: Vector) -> ReplyValue { .array([n(v.dx), n(v.dy)]) }

extension DebugGeometry.Boundary {
  fileprivate var value: ReplyValue {
    switch self {
    case .path(let id, let points):
      return .object([.string("id", id), ReplyField("points", .array(points.map(pair)))])
    case .referenceBounds(let r):
      return .object([
        ReplyField("id", .null),
        ReplyField("rect", .array([n(r.minX), n(r.minY), n(r.size.width), n(r.size.height)])),
      ])
    }
  }
}

extension DebugGeometry.Attachment {
  fileprivate var value: ReplyValue {
    .object([
      .string("kind", kind), .string("item", item), ReplyField("item_point", pair(itemPoint)),
      ReplyField("to", to.map { .string($0) } ?? .null), ReplyField("to_point", pair(toPoint)),
      .bool("spring", spring), .number("length", length),
    ])
  }
}

extension DebugGeometry.Snap {
  fileprivate var value: ReplyValue {
    .object([.string("item", item), ReplyField("point", pair(point))])
  }
}

extension DebugGeometry.Push {
  fileprivate var value: ReplyValue {
    .object([
      .strings("items", items), .string("mode", mode), ReplyField("vector", pair(vector)),
      .bool("active", active),
    ])
  }
}

extension DebugGeometry.Gravity {
  fileprivate var value: ReplyValue {
    .object([.strings("items", items), ReplyField("vector", pair(vector))])
  }
}

extension DebugGeometry.Touch {
  fileprivate var value: ReplyValue {
    var fields: [ReplyField] = [.string("item", item)]
    switch partner {
    case .item(let other): fields.append(.string("with", other))
    case .boundary(let id): fields.append(ReplyField("boundary", id.map { .string($0) } ?? .null))
    }
    if let point { fields.append(ReplyField("point", pair(point))) }
    return .object(fields)
  }
}
