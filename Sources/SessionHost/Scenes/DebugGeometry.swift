import Dynamics
import Primitives
import Wire

extension DebugGeometry {
  /// An animator's behaviors as geometry, DynamicXray-style (the `debug` reply and event): what
  /// a person needs to see why items move as they do. `contacts` are the touching pairs now.
  init(
    of animator: DynamicAnimator, contacts: [Touch], behaviorIDs: [ObjectIdentifier: String] = [:]
  ) {
    self.init()
    self.contacts = contacts
    let all = Self.flatten(animator.behaviors)
    let fieldCount = all.reduce(0) { $0 + ($1 is FieldBehavior ? 1 : 0) }
    var seenGroups = Set<ObjectIdentifier>()
    for item in animator.items
    where item.isGroup && seenGroups.insert(ObjectIdentifier(item)).inserted {
      groups.append(
        Group(
          id: item.identifier, items: item.groupMembers.map(\.identifier), center: item.center,
          angle: item.angle, size: item.size))
    }
    for behavior in all {
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
      case let f as FieldBehavior:
        fields.append(
          Field(
            id: behaviorIDs[ObjectIdentifier(f)] ?? "\(f.kind.rawValue)-\(fields.count + 1)",
            kind: f.kind.rawValue,
            position: f.position, region: RegionSpec(f.region), strength: f.strength,
            items: f.items.map(\.identifier),
            samples: Self.samples(of: f, in: animator.referenceBounds, fieldCount: fieldCount)))
      default:
        break
      }
    }
  }

  /// The most force samples a debug message carries for all its fields together; a scene
  /// with many fields gets a coarser grid for each.
  static let maxFieldSamples = 4_096

  /// The force of `field` on a still probe of mass 1 and charge 1 at the points of a grid of
  /// at most 16 × 16 over the reference bounds (or, without them, a 640 pt square around the
  /// field's position), leaving out points outside its region.
  static func samples(of field: FieldBehavior, in bounds: Rect?, fieldCount: Int)
    -> [Sample]
  {
    let perSide = max(2, min(16, Int((Double(maxFieldSamples / max(1, fieldCount))).squareRoot())))
    let area =
      bounds
      ?? Rect(x: field.position.x - 320, y: field.position.y - 320, width: 640, height: 640)
    var out: [Sample] = []
    out.reserveCapacity(perSide * perSide)
    for row in 0..<perSide {
      for column in 0..<perSide {
        let point = Point(
          x: area.minX + area.size.width * (Double(column) + 0.5) / Double(perSide),
          y: area.minY + area.size.height * (Double(row) + 0.5) / Double(perSide))
        guard field.region.contains(point - field.position) else { continue }
        let force = field.force(at: point, velocity: .zero, mass: 1, charge: 1)
        out.append(Sample(point: point, force: force))
      }
    }
    return out
  }

  /// Behaviors depth-first, parents before their children.
  private static func flatten(_ behaviors: [DynamicBehavior]) -> [DynamicBehavior] {
    behaviors.flatMap { [$0] + flatten($0.childBehaviors) }
  }
}
