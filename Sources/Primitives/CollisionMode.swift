/// What a collision behavior's items collide with (UICollisionBehaviorMode).
public enum CollisionMode: String, CaseIterable, Sendable {
  /// Items collide with each other and with boundaries (the default).
  case everything
  /// Items collide only with each other.
  case items
  /// Items collide only with the behavior's boundaries.
  case boundaries

  public var includesItems: Bool { self != .boundaries }
  public var includesBoundaries: Bool { self != .items }
}
