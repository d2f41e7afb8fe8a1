import Primitives

/// A snap behavior (UISnapBehavior): drives one item to a point and its rotation to 0.
public struct SnapSpec: Equatable, Sendable {
  public var id: String?
  public var item: String
  /// The point to snap to, in reference coordinates.
  public var point: Point
  /// In `Limits.snapDamping`; 0 oscillates most, 1 least (default 0.5).
  public var damping: Double?
  /// Rules run after every step (`ActionRule`).
  public var action: [ActionRule]

  public init(
    id: String? = nil, item: String, point: Point, damping: Double? = nil,
    action: [ActionRule] = []
  ) {
    self.id = id
    self.item = item
    self.point = point
    self.damping = damping
    self.action = action
  }
}

extension SnapSpec {
  static let fields: [StaticString] = ["type", "id", "item", "point", "damping", "action"]

  init(_ fields: ObjectReader) throws(ProtocolError) {
    try fields.rejectUnknownFields(Self.fields)
    self.init(
      id: try fields.name("id"), item: try fields.requiredName("item"),
      point: try fields.requiredPoint("point"),
      damping: try fields.number("damping", in: Limits.snapDamping),
      action: try fields.actionRules() ?? [])
  }
}
