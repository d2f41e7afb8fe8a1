import Primitives

/// A dynamic item to create: `{"id", "center", "size", "angle", "shape", "path"}`.
public struct ItemSpec: Equatable, Sendable {
  /// The item's name, unique in its session.
  public var id: String
  /// Where its center starts.
  public var center: Point
  /// Its bounds size; each side in `Limits.side`. Sizes never change.
  public var size: Size
  /// Its starting rotation in radians (default 0).
  public var angle: Double
  /// Its collision outline (default rectangle).
  public var shape: ItemShape

  public init(
    id: String, center: Point, size: Size, angle: Double = 0, shape: ItemShape = .rectangle
  ) {
    self.id = id
    self.center = center
    self.size = size
    self.angle = angle
    self.shape = shape
  }
}

/// The collision outline of an item: the engine's `CollisionShape` (Primitives).
public typealias ItemShape = CollisionShape

/// The words of an item's `shape` field.
private enum ShapeName: String, CaseIterable {
  case rectangle, ellipse, path
}

extension ItemSpec {
  static let fields: [StaticString] = ["id", "center", "size", "angle", "shape", "path"]

  /// Reads an item object.
  init(_ fields: ObjectReader) throws(ProtocolError) {
    try fields.rejectUnknownFields(Self.fields)
    id = try fields.requiredName("id")
    center = try fields.requiredPoint("center")
    guard let size = try fields.size("size") else { throw fields.missing("size") }
    self.size = size
    angle = try fields.number("angle", in: Limits.angle) ?? 0
    switch try fields.word("shape", as: ShapeName.self) ?? .rectangle {
    case .path:
      guard let points = try fields.points("path", count: Limits.pathVertices) else {
        throw fields.missing("path")
      }
      try PathGeometry.checkConvexPolygon(points, path: fields.fieldPath("path"))
      shape = .path(points)
    case let name:
      guard !fields.has("path") else {
        throw ProtocolError(
          .unknownField,
          "field '\(fields.fieldPath("path"))' is only defined for shape 'path', not "
            + "'\(name.rawValue)'")
      }
      shape = name == .ellipse ? .ellipse : .rectangle
    }
  }
}
