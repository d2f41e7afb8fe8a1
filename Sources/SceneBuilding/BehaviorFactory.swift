import Dynamics
import Primitives
import Wire

/// Builds engine behaviors from wire specs and applies `set_behavior` updates, with UIKit's
/// defaults for every field left out: the one path from a behavior's fields to the engine, for
/// a session's scene and for `SceneBuilder`.
public struct BehaviorFactory {
  /// The scene's item or group with an id, nil if it has none.
  private let lookup: (String) -> DynamicItem?

  public init(lookup: @escaping (String) -> DynamicItem?) {
    self.lookup = lookup
  }

  /// The items (or groups) named `ids`; `unknown_item` for an id the scene does not have.
  public func items(_ ids: [String]) throws(ProtocolError) -> [DynamicItem] {
    var out: [DynamicItem] = []
    for id in ids {
      guard let item = lookup(id) else {
        throw ProtocolError(.unknownItem, "no item or group named '\(id)' in this scene")
      }
      out.append(item)
    }
    return out
  }

  private func item(_ id: String) throws(ProtocolError) -> DynamicItem {
    try items([id])[0]
  }

  /// A new behavior: made from the fields `set_behavior` cannot change, then given the others
  /// by `apply`, the path of `set_behavior` itself (`BehaviorSpec.settableValues`). A spring and
  /// a decay are made with all of theirs: `apply` would only retarget the spring to the target
  /// and parameters it was made with, or give the decay its own model, before either first
  /// moves (`restartAll` on tracks that have no motion yet, and no animator to tell), which
  /// changes nothing, so it is skipped.
  public func make(_ spec: BehaviorSpec) throws(ProtocolError) -> DynamicBehavior {
    let behavior: DynamicBehavior
    var pushWithAngleAlone = false
    switch spec {
    case .gravity(let s):
      behavior = GravityBehavior(items: try items(s.items))
    case .collision(let s):
      behavior = CollisionBehavior(items: try items(s.items))
    case .attachment(let s):
      behavior = try attachment(s)
    case .snap(let s):
      behavior = SnapBehavior(item: try item(s.item), snapTo: s.point)
    case .push(let s):
      behavior = PushBehavior(
        items: try items(s.items), mode: s.mode == .continuous ? .continuous : .instantaneous)
      // UIKit's push starts with magnitude 0 and angle 0; an angle sent alone pushes with 1.
      pushWithAngleAlone = s.direction == nil && s.angle != nil && s.magnitude == nil
    case .dynamicItem(let s):
      behavior = DynamicItemBehavior(items: try items(s.items))
    case .field(let s):
      behavior = try field(s)
    case .spring(let s):
      guard let parameters = s.parameters.parameters else {
        throw ProtocolError(.outOfRange, "the spring's parameters are outside their ranges")
      }
      let held = try items(s.items)
      return try engine {
        try SpringBehavior(
          items: held, target: s.target, parameters: parameters,
          initialVelocity: s.initialVelocity)
      }
    case .decay(let s):
      let held = try items(s.items)
      return try engine {
        try DecayBehavior(items: held, model: s.model, initialVelocity: s.initialVelocity)
      }
    case .composite:
      // Organizational only: the animator flattens the tree; `SceneModel` adds the children.
      return DynamicBehavior()
    }
    var values = spec.settableValues
    if pushWithAngleAlone { values.magnitude = 1 }
    try apply(values, to: behavior)
    return behavior
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
    return attachment
  }

  // MARK: updates

  /// What an update names, resolved for the engine: its items looked up, its region made the
  /// engine's and checked. Resolved once (`resolve`), an update may be applied any number of
  /// times while the scene keeps those items (a document transition resolves each update of its
  /// parameters alone when its session opens).
  public struct ResolvedNames {
    let items: [DynamicItem]?
    let region: Region?
  }

  /// The names `u` holds, resolved: `unknown_item` for an id the scene does not have, and the
  /// engine's word on a region it refuses.
  public func resolve(_ u: BehaviorUpdate) throws(ProtocolError) -> ResolvedNames {
    let held = try u.items.map { (ids) throws(ProtocolError) in try items(ids) }
    let region = u.region.map(Region.init)
    if let region { try engine { try Region.validate(region) } }
    return ResolvedNames(items: held, region: region)
  }

  /// Applies an update read for the behavior's type (`BehaviorFields.update(for:)`).
  public func apply(_ u: BehaviorUpdate, to behavior: DynamicBehavior) throws(ProtocolError) {
    try apply(u, resolved: resolve(u), to: behavior)
  }

  /// Applies an update read for the behavior's type, whose names `resolved` holds.
  public func apply(_ u: BehaviorUpdate, resolved: ResolvedNames, to behavior: DynamicBehavior)
    throws(ProtocolError)
  {
    switch behavior {
    case let g as GravityBehavior:
      if let new = resolved.items {
        replaceItems(new, g.items, add: g.addItem, remove: g.removeItem)
      }
      setForce(g, direction: u.direction, angle: u.angle, magnitude: u.magnitude)
    case let c as CollisionBehavior:
      if u.referenceBounds != nil || u.insets != nil {
        try setBounds(c, referenceBounds: u.referenceBounds, insets: u.insets)
      }
      if let boundaries = u.boundaries {
        c.removeAllBoundaries()
        try setBoundaries(c, boundaries)
      }
      if let mode = u.mode { c.collisionMode = mode }
      if let new = resolved.items {
        replaceItems(new, c.items, add: c.addItem, remove: c.removeItem)
      }
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
      if let new = resolved.items {
        replaceItems(new, p.items, add: p.addItem, remove: p.removeItem)
      }
      if let d = u.direction {
        p.pushDirection = d
      } else if u.angle != nil || u.magnitude != nil {
        p.setAngle(u.angle ?? p.angle, magnitude: u.magnitude ?? p.magnitude)
      }
      if let o = u.offset { for it in p.items { p.setTargetOffsetFromCenter(o, for: it) } }
      if let a = u.active { p.active = a }
    case let f as FieldBehavior:
      apply(u, resolved: resolved, to: f)
    case let s as SpringBehavior:
      try apply(u, items: resolved.items, to: s)
    case let d as DecayBehavior:
      try apply(u, items: resolved.items, to: d)
    case let b as DynamicItemBehavior:
      if let new = resolved.items {
        replaceItems(new, b.items, add: b.addItem, remove: b.removeItem)
      }
      let p = u.itemProperties
      if let v = p.elasticity { b.elasticity = v }
      if let v = p.friction { b.friction = v }
      if let v = p.density { b.density = v }
      if let v = p.resistance { b.resistance = v }
      if let v = p.angularResistance { b.angularResistance = v }
      if let v = p.allowsRotation { b.allowsRotation = v }
      if let v = p.anchored { b.anchored = v }
      if let v = p.charge { b.charge = v }
    default:
      break
    }
  }

  public func replaceItems(
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
