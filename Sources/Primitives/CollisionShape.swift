/// The outline an item collides with (UIDynamicItemCollisionBoundsType): what a scene's item
/// gives as `shape` and the engine builds its fixtures from.
public enum CollisionShape: Hashable, Sendable {
  /// The item's bounds (the default).
  case rectangle
  /// The ellipse inscribed in the bounds.
  case ellipse
  /// A convex polygon, vertices relative to the item's center, in either winding (a scene's
  /// path is checked for convexity, spacing and area before it gets here).
  case path([Point])
}
