import Primitives

/// A contact that began or ended between an item and another item or a boundary.
public struct ContactEvent {
  public enum Phase: String, Sendable {
    case began
    case ended
  }
  /// What the item touched.
  public enum Other {
    case item(DynamicItem)
    /// A boundary by identifier; nil is the reference-bounds boundary.
    case boundary(String?)
  }
  public let phase: Phase
  public let item: DynamicItem
  public let other: Other
  /// Where the contact began (mean of the manifold points, on the boundary for boundaries);
  /// nil for ended contacts.
  public let point: Point?
}

/// One side of a raw Box2D contact.
enum ContactParticipant {
  case item(DynamicItem)
  case boundary(owner: ObjectIdentifier, tag: Int32, identifier: String?)
}

/// Turns Box2D's per-fixture contacts into one began/ended pair per item pair or item–boundary
/// (an ellipse is several fixtures, so one touch can be several Box2D contacts).
struct ContactLedger {
  private enum Key: Hashable {
    case items(ObjectIdentifier, ObjectIdentifier)
    case boundary(ObjectIdentifier, owner: ObjectIdentifier, tag: Int32)
  }
  private var touching: [Key: (count: Int, item: DynamicItem, other: ContactEvent.Other)] = [:]

  /// Records a raw contact; returns the event to report when a pair starts or stops touching.
  mutating func record(
    _ raw: RawContact, resolve: (BodyHandle, Int32) -> ContactParticipant?
  ) -> ContactEvent? {
    guard let a = resolve(raw.bodyA, raw.tagA), let b = resolve(raw.bodyB, raw.tagB) else {
      return nil
    }
    let key: Key
    let item: DynamicItem
    let other: ContactEvent.Other
    let point: Point?
    switch (a, b) {
    case (.item(let x), .item(let y)):
      let (ix, iy) = (ObjectIdentifier(x), ObjectIdentifier(y))
      key = .items(min(ix, iy), max(ix, iy))
      (item, other, point) = (x, .item(y), raw.point)
    case (.item(let x), .boundary(let owner, let tag, let id)):
      key = .boundary(ObjectIdentifier(x), owner: owner, tag: tag)
      (item, other, point) = (x, .boundary(id), raw.pointOnB)  // on the boundary, as UIKit
    case (.boundary(let owner, let tag, let id), .item(let x)):
      key = .boundary(ObjectIdentifier(x), owner: owner, tag: tag)
      (item, other, point) = (x, .boundary(id), raw.pointOnA)
    default:
      return nil
    }
    if raw.began {
      if let entry = touching[key] {
        touching[key]!.count = entry.count + 1
        return nil
      }
      touching[key] = (1, item, other)
      return ContactEvent(phase: .began, item: item, other: other, point: point)
    }
    guard let entry = touching[key] else { return nil }
    if entry.count > 1 {
      touching[key]!.count = entry.count - 1
      return nil
    }
    touching[key] = nil
    // Report the end with the same orientation as the beginning.
    return ContactEvent(phase: .ended, item: entry.item, other: entry.other, point: nil)
  }
}
