import Primitives

extension BehaviorSpec {
  /// The values of the fields `set_behavior` can set (`BehaviorUpdate.settableFields`), as this
  /// spec gives them: a new behavior is made from its other fields (items, kind, the item it
  /// snaps, what an attachment ties) and then these are applied exactly as an update's are, so
  /// create and update share one path. `items` and `action` are left out: the behavior is made
  /// with its items, and its rules are kept by the scene.
  public var settableValues: BehaviorUpdate {
    var u = BehaviorUpdate()
    switch self {
    case .gravity(let s):
      (u.direction, u.angle, u.magnitude) = (s.direction, s.angle, s.magnitude)
    case .collision(let s):
      (u.mode, u.referenceBounds, u.insets) = (s.mode, s.referenceBounds, s.insets)
      u.boundaries = s.boundaries.isEmpty ? nil : s.boundaries
    case .attachment(let s):
      (u.length, u.damping, u.frequency) = (s.length, s.damping, s.frequency)
      (u.frictionTorque, u.range) = (s.frictionTorque, s.range)
    case .snap(let s):
      u.damping = s.damping
    case .push(let s):
      (u.direction, u.angle, u.magnitude) = (s.direction, s.angle, s.magnitude)
      (u.offset, u.active) = (s.offset, s.active)
    case .dynamicItem(let s):
      u.itemProperties = s.properties
    case .field(let s):
      (u.position, u.region, u.strength, u.falloff) = (s.position, s.region, s.strength, s.falloff)
      (u.minimumRadius, u.direction, u.smoothness) = (s.minimumRadius, s.direction, s.smoothness)
      (u.animationSpeed, u.seed) = (s.animationSpeed, s.seed)
    case .spring(let s):
      (u.target, u.spring) = (s.target, s.parameters)
    case .decay(let d):
      u.decay = d.model
    case .composite:
      break
    }
    return u
  }
}
