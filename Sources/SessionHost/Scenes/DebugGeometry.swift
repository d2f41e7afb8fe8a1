import Dynamics
import Primitives
import Wire

extension DebugGeometry {
  /// An animator's behaviors as geometry, DynamicXray-style (the `debug` reply and event): what
  /// a person needs to see why items move as they do. `contacts` are the touching pairs now.
  init(of animator: DynamicAnimator, contacts: [Touch]) {
    self.init()
    self.contacts = contacts
    for behavior in Self.flatten(animator.behaviors) {
      switch behavior {
      case let c as CollisionBehavior:
        if c.translatesReferenceBoundsIntoBoundary, let bounds = animator.referenceBounds {
          boundaries.append(.referenceBounds(bounds.inset(by: c.referenceBoundsInsets)))
        }
        for id in c.boundaryIdentifiers {
          guard let b = c.boundary(identifier: id) else { continue }
          boundaries.append(.path(id: id, points: b.points))
        }
      case let a as AttachmentBehavior:
        var to: String?
        var toPoint = a.anchorPoint
        if case .item(let other, let offset) = a.target {
          to = other.identifier
          toPoint = other.center + offset.rotated(by: other.angle)
        }
        attachments.append(
          Attachment(
            kind: a.kind.rawValue, item: a.item.identifier,
            itemPoint: a.item.center + a.offset.rotated(by: a.item.angle), to: to,
            toPoint: toPoint, spring: a.frequency > 0, length: a.length))
      case let s as SnapBehavior:
        snaps.append(Snap(item: s.item.identifier, point: s.snapPoint))
      case let p as PushBehavior:
        pushes.append(
          Push(
            items: p.items.map(\.identifier), mode: p.mode.rawValue, vector: p.pushDirection,
            active: p.active))
      case let g as GravityBehavior:
        gravity.append(Gravity(items: g.items.map(\.identifier), vector: g.gravityDirection))
      default:
        break
      }
    }
  }

  /// Behaviors depth-first, parents before their children.
  private static func flatten(_ behaviors: [DynamicBehavior]) -> [DynamicBehavior] {
    behaviors.flatMap { [$0] + flatten($0.childBehaviors) }
  }
}
