import Primitives

/// A collision behavior (UICollisionBehavior): its items collide with each other and/or with
/// its boundaries.
///
/// `reference_bounds: true` turns the reference bounds into a boundary (identifier null);
/// `insets` does the same with insets. The two are exclusive.
public struct CollisionSpec: Equatable, Sendable {
  public var id: String?
  public var items: [String]
  /// Default everything.
  public var mode: CollisionMode?
  /// translatesReferenceBoundsIntoBoundary (default false).
  public var referenceBounds: Bool?
  /// setTranslatesReferenceBoundsIntoBoundaryWithInsets; implies the reference-bounds boundary.
  public var insets: EdgeInsets?
  /// Named boundaries, in order (at most `Limits.maxBoundariesPerBehavior`, unique ids).
  public var boundaries: [BoundarySpec]
  /// Rules run after every step (`ActionRule`).
  public var action: [ActionRule]

  public init(
    id: String? = nil, items: [String], mode: CollisionMode? = nil, referenceBounds: Bool? = nil,
    insets: EdgeInsets? = nil, boundaries: [BoundarySpec] = [], action: [ActionRule] = []
  ) {
    self.id = id
    self.items = items
    self.mode = mode
    self.referenceBounds = referenceBounds
    self.insets = insets
    self.boundaries = boundaries
    self.action = action
  }
}

/// A named boundary: a segment `{id, from, to}` or a polyline `{id, path}` in reference
/// coordinates.
public struct BoundarySpec: Equatable, Sendable {
  /// The identifier reported in contact events.
  public var id: String
  public var shape: BoundaryShape

  public init(id: String, shape: BoundaryShape) {
    self.id = id
    self.shape = shape
  }
}

/// The geometry of a boundary.
public enum BoundaryShape: Equatable, Sendable {
  /// A segment; its ends are at least `Limits.minVertexSpacing` apart.
  case segment(from: Point, to: Point)
  /// An open polyline of `Limits.boundaryPoints` points (repeat the first point to close it);
  /// consecutive points are at least `Limits.minVertexSpacing` apart.
  case path([Point])
}

extension CollisionSpec {
  static let fields: [StaticString] = [
    "type", "id", "items", "mode", "reference_bounds", "insets", "boundaries", "action",
  ]

  init(_ fields: ObjectReader) throws(ProtocolError) {
    try fields.rejectUnknownFields(Self.fields)
    let id = try fields.name("id")
    let items = try fields.behaviorItems()
    let mode = try fields.word("mode", as: CollisionMode.self)
    let referenceBounds = try fields.bool("reference_bounds")
    let insets = try fields.insets("insets")
    if insets != nil, referenceBounds != nil {
      throw fields.exclusive("insets", with: "reference_bounds")
    }
    self.init(
      id: id, items: items, mode: mode, referenceBounds: referenceBounds, insets: insets,
      boundaries: try Self.boundaries(fields), action: try fields.actionRules() ?? [])
  }

  /// Reads the `boundaries` list of a collision behavior (or of a `set_behavior`).
  static func boundaries(_ fields: ObjectReader) throws(ProtocolError) -> [BoundarySpec] {
    let objects =
      try fields.objects(
        "boundaries", maxCount: Limits.maxBoundariesPerBehavior, owner: "a boundary") ?? []
    var boundaries: [BoundarySpec] = []
    boundaries.reserveCapacity(objects.count)
    for object in objects { boundaries.append(try BoundarySpec(object)) }
    try checkDistinct(
      boundaries.map(\.id), path: fields.fieldPath("boundaries"), what: "boundary id")
    return boundaries
  }
}

extension BoundarySpec {
  static let fields: [StaticString] = ["id", "from", "to", "path"]

  init(_ fields: ObjectReader) throws(ProtocolError) {
    try fields.rejectUnknownFields(Self.fields)
    id = try fields.requiredName("id")
    if let points = try fields.points("path", count: Limits.boundaryPoints) {
      if fields.has("from") { throw fields.exclusive("from", with: "path") }
      if fields.has("to") { throw fields.exclusive("to", with: "path") }
      try PathGeometry.checkSpacing(points, path: fields.fieldPath("path"), closed: false)
      shape = .path(points)
    } else if fields.has("from") || fields.has("to") {
      let from = try fields.requiredPoint("from")
      let to = try fields.requiredPoint("to")
      try PathGeometry.checkSpacing([from, to], path: fields.path, closed: false)
      shape = .segment(from: from, to: to)
    } else {
      throw ProtocolError(
        .missingField,
        "a boundary needs 'from' and 'to', or 'path' (in '\(fields.path)')")
    }
  }
}
