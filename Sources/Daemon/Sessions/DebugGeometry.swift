import Dynamics
import Primitives
import Wire

/// A session's behaviors as geometry, DynamicXray-style, for the `debug` op and event: what a
/// person needs to see why items move as they do. Every point is in reference coordinates.
///
/// - `boundaries`: `{id, points}` polylines (a segment has two points) and, for the reference
///   bounds of a collision behavior, `{id: null, rect: [x, y, w, h]}` (after insets).
/// - `attachments`: `{kind, item, item_point, to, to_point, spring, length}` — `to` is the other
///   item or null for an anchor; `spring` is true when the attachment has a frequency (drawn as a
///   spring) and false when rigid.
/// - `snaps`: `{item, point}`; `pushes`: `{items, mode, vector, active}`;
///   `gravity`: `{items, vector}` (vector in UIKit units: magnitude 1 = 1000 pt/s²).
/// - `contacts`: the touching pairs now, `{item, with | boundary, point}`.
enum DebugGeometry {
  static func fields(of animator: DynamicAnimator, contacts: [ActiveContact]) -> [ReplyField] {
    var boundaries: [ReplyValue] = []
    var attachments: [ReplyValue] = []
    var snaps: [ReplyValue] = []
    var pushes: [ReplyValue] = []
    var gravity: [ReplyValue] = []
    for behavior in flatten(animator.behaviors) {
      switch behavior {
      case let c as CollisionBehavior:
        if c.translatesReferenceBoundsIntoBoundary, let bounds = animator.referenceBounds {
          let r = bounds.inset(by: c.referenceBoundsInsets)
          boundaries.append(
            .object([
              ReplyField("id", .null),
              ReplyField(
                "rect", .array([n(r.minX), n(r.minY), n(r.size.width), n(r.size.height)])),
            ]))
        }
        for id in c.boundaryIdentifiers {
          guard let b = c.boundary(identifier: id) else { continue }
          boundaries.append(
            .object([.string("id", id), ReplyField("points", .array(b.points.map(point)))]))
        }
      case let a as AttachmentBehavior:
        var to: ReplyValue = .null
        var toPoint = a.anchorPoint
        if case .item(let other, let offset) = a.target {
          to = .string(other.identifier)
          toPoint = other.center + offset.rotated(by: other.angle)
        }
        attachments.append(
          .object([
            .string("kind", a.kind.rawValue), .string("item", a.item.identifier),
            ReplyField("item_point", point(a.item.center + a.offset.rotated(by: a.item.angle))),
            ReplyField("to", to), ReplyField("to_point", point(toPoint)),
            .bool("spring", a.frequency > 0), .number("length", a.length),
          ]))
      case let s as SnapBehavior:
        snaps.append(
          .object([.string("item", s.item.identifier), ReplyField("point", point(s.snapPoint))]))
      case let p as PushBehavior:
        pushes.append(
          .object([
            .strings("items", p.items.map(\.identifier)), .string("mode", p.mode.rawValue),
            ReplyField("vector", vector(p.pushDirection)), .bool("active", p.active),
          ]))
      case let g as GravityBehavior:
        gravity.append(
          .object([
            .strings("items", g.items.map(\.identifier)),
            ReplyField("vector", vector(g.gravityDirection)),
          ]))
      default:
        break
      }
    }
    return [
      ReplyField("boundaries", .array(boundaries)), ReplyField("attachments", .array(attachments)),
      ReplyField("snaps", .array(snaps)), ReplyField("pushes", .array(pushes)),
      ReplyField("gravity", .array(gravity)),
      ReplyField("contacts", .array(contacts.map(\.value))),
    ]
  }

  /// Behaviors depth-first, parents before their children.
  private static func flatten(_ behaviors: [DynamicBehavior]) -> [DynamicBehavior] {
    behaviors.flatMap { [$0] + flatten($0.childBehaviors) }
  }

  private static func n(_ v: Double) -> ReplyValue {
    .number(v, decimals: WireProtocol.linearDecimals)
  }
  private static func point(_ p: Point) -> ReplyValue { .array([n(p.x), n(p.y)]) }
  private static func vector(_ v: Vector) -> ReplyValue { .array([n(v.dx), n(v.dy)]) }
}

/// Two things touching now, from the contact events.
struct ActiveContact: Equatable {
  let item: String
  let partner: ContactPartner
  let point: Point?

  var value: ReplyValue {
    var fields: [ReplyField] = [.string("item", item)]
    switch partner {
    case .item(let other): fields.append(.string("with", other))
    case .boundary(let id): fields.append(ReplyField("boundary", id.map { .string($0) } ?? .null))
    }
    if let point {
      fields.append(
        ReplyField(
          "point",
          .array([
            .number(point.x, decimals: WireProtocol.linearDecimals),
            .number(point.y, decimals: WireProtocol.linearDecimals),
          ])))
    }
    return .object(fields)
  }
}
