import Dynamics
import Primitives
import SceneBuilding
import Wire

extension DebugGeometry {
  /// An animator's behaviors as geometry, DynamicXray-style (the `debug` reply and event): what
  /// a person needs to see why items move as they do. `contacts` are the touching pairs now.
  ///
  /// Bounded before it is built (`Limits.maxDebugBytes`): contacts are listed in the order they
  /// began while they fit, and when the behaviors' geometry alone would not fit (the scene grew
  /// after the stream began) every list is empty; `leftOut` counts what was left out.
  init(
    of animator: DynamicAnimator, contacts: [Touch], behaviorIDs: [ObjectIdentifier: String] = [:]
  ) {
    self.init()
    let all = Self.flatten(animator.behaviors)
    let ids = Self.itemIDBytes(of: animator)
    var room = Limits.maxDebugBytes - Self.estimatedBytes(of: animator, ids: ids)
    guard room >= 0 else {
      leftOut = all.count + contacts.count
      return
    }
    for contact in contacts {
      room -= Self.estimatedBytes(of: contact, ids: ids)
      if room < 0 { break }
      self.contacts.append(contact)
    }
    leftOut = contacts.count - self.contacts.count
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
            toPoint: toPoint, spring: a.frequency > 0, length: a.length,
            axis: a.kind == .sliding
              ? Vector(dx: a.axis.dx / a.axis.length, dy: a.axis.dy / a.axis.length) : nil))
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

  /// Grid points per side of each field's samples when the scene has `fieldCount` fields.
  static func samplesPerSide(fieldCount: Int) -> Int {
    max(2, min(16, Int((Double(maxFieldSamples / max(1, fieldCount))).squareRoot())))
  }

  /// The force of `field` on a still probe of mass 1 and charge 1 at the points of a grid of
  /// at most 16 × 16 over the reference bounds (or, without them, a 640 pt square around the
  /// field's position), leaving out points outside its region.
  static func samples(of field: FieldBehavior, in bounds: Rect?, fieldCount: Int)
    -> [Sample]
  {
    let perSide = samplesPerSide(fieldCount: fieldCount)
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

  // MARK: size bounds

  /// A number as the encoder writes it at most: sign, 19 digits, point and decimals, or a
  /// double's shortest text.
  private static let numberBytes = 25
  /// An id listed with its quotes and comma.
  private static func idBytes(_ id: String) -> Int { SceneModel.jsonBytes(id) + 3 }
  private static let unnamedIDBytes = 2 * Limits.nameBytes.upperBound + 3

  /// What a list of item ids is bounded by: the longest id of the animated items and groups
  /// (and groups' members) and all of them together, with quotes and commas.
  struct ItemIDBytes {
    var longest = 0
    var total = 0

    /// Bytes of `count` ids listed: never more than `count` of the longest, nor than all ids.
    func listed(_ count: Int) -> Int { min(count * longest, total) }
  }

  /// Counted once per estimate, O(the ids' bytes) (at most 2 000 ids of 256 bytes).
  static func itemIDBytes(of animator: DynamicAnimator) -> ItemIDBytes {
    var ids = ItemIDBytes()
    func add(_ id: String) {
      let bytes = idBytes(id)
      ids.longest = max(ids.longest, bytes)
      ids.total += bytes
    }
    for item in animator.items {
      add(item.identifier)
      for member in item.groupMembers { add(member.identifier) }
    }
    return ids
  }

  /// An upper bound of the encoded size of the geometry of `animator`'s behaviors and groups,
  /// contacts aside, with the event's or reply's envelope, building nothing: O(behaviors +
  /// groups) once the ids' lengths are known (a list of ids counts from its length, `ids`).
  static func estimatedBytes(of animator: DynamicAnimator, ids: ItemIDBytes) -> Int {
    let n = numberBytes
    let all = flatten(animator.behaviors)
    let fieldCount = all.reduce(0) { $0 + ($1 is FieldBehavior ? 1 : 0) }
    var bytes = 1_024  // the envelope: ev, session (an escaped name), seq, t, the list names
    for behavior in all {
      switch behavior {
      case let c as CollisionBehavior:
        bytes += 40 + 4 * n
        for id in c.boundaryIdentifiers {
          bytes += 40 + idBytes(id) + (2 * n + 4) * (c.boundary(identifier: id)?.points.count ?? 0)
        }
      case is AttachmentBehavior:
        bytes += 120 + 5 * n + 2 * ids.longest
      case is SnapBehavior:
        bytes += 40 + 2 * n + ids.longest
      case let p as PushBehavior:
        bytes += 80 + 2 * n + ids.listed(p.items.count)
      case let g as GravityBehavior:
        bytes += 40 + 2 * n + ids.listed(g.items.count)
      case let f as FieldBehavior:
        let perSide = samplesPerSide(fieldCount: fieldCount)
        bytes +=
          120 + unnamedIDBytes + 3 * n + 70 * RegionSpec(f.region).nodeCount
          + ids.listed(f.items.count) + perSide * perSide * (4 * n + 5)
      default:
        break
      }
    }
    for item in animator.items where item.isGroup {
      bytes += 80 + ids.longest + 5 * n + ids.listed(item.groupMembers.count)
    }
    return bytes
  }

  /// An upper bound of one contact's encoded size.
  static func estimatedBytes(of touch: Touch, ids: ItemIDBytes) -> Int {
    var bytes = 50 + 2 * numberBytes + ids.longest
    switch touch.partner {
    case .item: bytes += ids.longest
    case .boundary(let id): bytes += id.map(idBytes) ?? 5
    }
    return bytes
  }

  /// Behaviors depth-first, parents before their children.
  private static func flatten(_ behaviors: [DynamicBehavior]) -> [DynamicBehavior] {
    behaviors.flatMap { [$0] + flatten($0.childBehaviors) }
  }
}
