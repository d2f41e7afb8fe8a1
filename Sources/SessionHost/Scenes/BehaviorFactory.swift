import Dynamics
import Primitives
import Wire

/// Builds engine behaviors from wire specs and applies `set_behavior` updates, with UIKit's
/// defaults for every field left out.
struct BehaviorFactory {
  let scene: SceneModel

  func items(_ ids: [String]) throws(ProtocolError) -> [DynamicItem] {
    var out: [DynamicItem] = []
    for id in ids {
      guard let item = scene.itemsByID[id] ?? scene.groupsByID[id] else {
        throw ProtocolError(.unknownItem, "no item or group named '\(id)' in this scene")
      }
      out.append(item)
    }
    return out
  }

  private func item(_ id: String) throws(ProtocolError) -> DynamicItem {
    try items([id])[0]
  }

  func make(_ spec: BehaviorSpec) throws(ProtocolError) -> DynamicBehavior {
    switch spec {
    case .gravity(let s):
      let g = GravityBehavior(items: try items(s.items))
      setForce(g, direction: s.direction, angle: s.angle, magnitude: s.magnitude)
      return g
    case .collision(let s):
      let c = CollisionBehavior(items: try items(s.items))
      c.collisionMode = s.mode ?? .everything
      try setBounds(c, referenceBounds: s.referenceBounds, insets: s.insets)
      try setBoundaries(c, s.boundaries)
      return c
    case .attachment(let s):
      return try attachment(s)
    case .snap(let s):
      let snap = SnapBehavior(item: try item(s.item), snapTo: s.point)
      if let d = s.damping { snap.damping = d }
      return snap
    case .push(let s):
      let p = PushBehavior(
        items: try items(s.items), mode: s.mode == .continuous ? .continuous : .instantaneous)
      // UIKit's push starts with magnitude 0 and angle 0: only what is given is set.
      if let d = s.direction {
        p.pushDirection = d
      } else if s.angle != nil || s.magnitude != nil {
        p.setAngle(s.angle ?? 0, magnitude: s.magnitude ?? 1)
      }
      if let o = s.offset { for it in p.items { p.setTargetOffsetFromCenter(o, for: it) } }
      if let a = s.active { p.active = a }
      return p
    case .dynamicItem(let s):
      let b = DynamicItemBehavior(items: try items(s.items))
      if let v = s.elasticity { b.elasticity = v }
      if let v = s.friction { b.friction = v }
      if let v = s.density { b.density = v }
      if let v = s.resistance { b.resistance = v }
      if let v = s.angularResistance { b.angularResistance = v }
      if let v = s.allowsRotation { b.allowsRotation = v }
      if let v = s.anchored { b.anchored = v }
      if let v = s.charge { b.charge = v }
      return b
    case .field(let s):
      return try field(s)
    case .composite:
      // Organizational only: the animator flattens the tree; `SceneModel` adds the children.
      return DynamicBehavior()
    }
  }

  private func attachment(_ s: AttachmentSpec) throws(ProtocolError) -> AttachmentBehavior {
    let a = try item(s.item)
    let b = try s.to.map { (id) throws(ProtocolError) in try item(id) }
    let offset = s.offset ?? .zero
    let attachment: AttachmentBehavior = try engine {
      switch s.kind {
      case .distance:
        if let b {
          return try AttachmentBehavior(
            item: a, offsetFromCenter: offset, attachedTo: b,
            offsetFromCenter: s.toOffset ?? .zero)
        }
        return try AttachmentBehavior(
          item: a, offsetFromCenter: offset, attachedToAnchor: s.anchor!)
      case .sliding:
        let axis = s.axis!
        if let b {
          return try .sliding(item: a, attachedTo: b, anchor: s.anchor!, axis: axis)
        }
        return try .sliding(item: a, anchor: s.anchor!, axis: axis)
      case .limit:
        return try .limit(
          item: a, offsetFromCenter: offset, attachedTo: b!,
          offsetFromCenter: s.toOffset ?? .zero)
      case .fixed:
        return try .fixed(item: a, attachedTo: b!, anchor: s.anchor!)
      case .pin:
        return try .pin(item: a, attachedTo: b!, anchor: s.anchor!)
      }
    }
    if let v = s.length { attachment.length = v }
    if let v = s.damping { attachment.damping = v }
    if let v = s.frequency { attachment.frequency = v }
    if let v = s.frictionTorque { attachment.frictionTorque = v }
    if let r = s.range {
      attachment.attachmentRange = FloatRange(minimum: r.minimum, maximum: r.maximum)
    }
    return attachment
  }

  // MARK: updates

  /// Applies an update already checked against the behavior's type (`BehaviorUpdate.check`).
  func apply(_ u: BehaviorUpdate, to behavior: DynamicBehavior) throws(ProtocolError) {
    switch behavior {
    case let g as GravityBehavior:
      if let ids = u.items {
        replaceItems(try items(ids), g.items, add: g.addItem, remove: g.removeItem)
      }
      setForce(g, direction: u.direction, angle: u.angle, magnitude: u.magnitude)
    case let c as CollisionBehavior:
      let newItems = try u.items.map { (ids) throws(ProtocolError) in try items(ids) }
      if u.referenceBounds != nil || u.insets != nil {
        try setBounds(c, referenceBounds: u.referenceBounds, insets: u.insets)
      }
      if let boundaries = u.boundaries {
        c.removeAllBoundaries()
        try setBoundaries(c, boundaries)
      }
      if let mode = u.mode { c.collisionMode = mode }
      if let newItems { replaceItems(newItems, c.items, add: c.addItem, remove: c.removeItem) }
    case let a as AttachmentBehavior:
      if let r = u.range, a.kind == .sliding, !(r.minimum <= 0 && 0 <= r.maximum) {
        throw ProtocolError(.outOfRange, "the range of a sliding attachment must include 0")
      }
      if let p = u.anchor { a.anchorPoint = p }
      if let v = u.length { a.length = v }
      if let v = u.damping { a.damping = v }
      if let v = u.frequency { a.frequency = v }
      if let v = u.frictionTorque { a.frictionTorque = v }
      if let r = u.range { a.attachmentRange = FloatRange(minimum: r.minimum, maximum: r.maximum) }
    case let s as SnapBehavior:
      if let p = u.point { s.snapPoint = p }
      if let d = u.damping { s.damping = d }
    case let p as PushBehavior:
      if let ids = u.items {
        replaceItems(try items(ids), p.items, add: p.addItem, remove: p.removeItem)
      }
      if let d = u.direction {
        p.pushDirection = d
      } else if u.angle != nil || u.magnitude != nil {
        p.setAngle(u.angle ?? p.angle, magnitude: u.magnitude ?? p.magnitude)
      }
      if let o = u.offset { for it in p.items { p.setTargetOffsetFromCenter(o, for: it) } }
      if let a = u.active { p.active = a }
    case let f as FieldBehavior:
      try apply(u, to: f)
    case let b as DynamicItemBehavior:
      if let ids = u.items {
        replaceItems(try items(ids), b.items, add: b.addItem, remove: b.removeItem)
      }
      if let v = u.elasticity { b.elasticity = v }
      if let v = u.friction { b.friction = v }
      if let v = u.density { b.density = v }
      if let v = u.resistance { b.resistance = v }
      if let v = u.angularResistance { b.angularResistance = v }
      if let v = u.allowsRotation { b.allowsRotation = v }
      if let v = u.anchored { b.anchored = v }
      if let v = u.charge { b.charge = v }
    default:
      break
    }
  }

  func replaceItems(
    _ new: [DynamicItem], _ old: [DynamicItem], add: (DynamicItem) -> Void,
    remove: (DynamicItem) -> Void
  ) {
    for it in old where !new.contains(where: { $0 === it }) { remove(it) }
    for it in new where !old.contains(where: { $0 === it }) { add(it) }
  }

  private func setForce(
    _ g: GravityBehavior, direction: Vector?, angle: Double?, magnitude: Double?
  ) {
    if let d = direction {
      g.gravityDirection = d
    } else if angle != nil || magnitude != nil {
      g.setAngle(angle ?? g.angle, magnitude: magnitude ?? g.magnitude)
    }
  }

  private func setBounds(_ c: CollisionBehavior, referenceBounds: Bool?, insets: EdgeInsets?)
    throws(ProtocolError)
  {
    if let i = insets {
      try engine {
        try c.setTranslatesReferenceBoundsIntoBoundary(
          true, insets: EdgeInsets(top: i.top, left: i.left, bottom: i.bottom, right: i.right))
      }
    } else if let on = referenceBounds {
      try engine { try c.setTranslatesReferenceBoundsIntoBoundary(on) }
    }
  }

  private func setBoundaries(_ c: CollisionBehavior, _ boundaries: [BoundarySpec])
    throws(ProtocolError)
  {
    for boundary in boundaries {
      try engine {
        switch boundary.shape {
        case .segment(let from, let to):
          try c.addBoundary(identifier: boundary.id, from: from, to: to)
        case .path(let points):
          try c.addBoundary(identifier: boundary.id, path: points)
        }
      }
    }
  }
}
