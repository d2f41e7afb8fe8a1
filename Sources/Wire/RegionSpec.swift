import Primitives

/// Where a field acts (UIRegion), relative to the field's `position`: one JSON object with
/// exactly one key.
///
/// | form | region |
/// |---|---|
/// | `{"infinite": true}` | everywhere (UIRegion.infiniteRegion; a field's default) |
/// | `{"radius": r}` | the disc of radius `r` around the position |
/// | `{"size": [w, h]}` | the `w` × `h` rectangle centered on the position |
/// | `{"inverse": R}` | everywhere outside `R` (the inverse of infinite is empty) |
/// | `{"union": [R, R]}` | in either |
/// | `{"intersection": [R, R]}` | in both |
/// | `{"difference": [R, R]}` | in the first and not in the second |
///
/// `r`, `w` and `h` are in `Limits.regionExtent` (0 is an empty region). A region is at most
/// `Limits.maxRegionDepth` levels deep (the outer object is level 1) and holds at most
/// `Limits.maxRegionNodes` objects; beyond either it is `out_of_range`. Replies write a region
/// back in the same form.
public indirect enum RegionSpec: Equatable, Sendable {
  case infinite
  case radius(Double)
  case size(Size)
  case inverse(RegionSpec)
  case union(RegionSpec, RegionSpec)
  case intersection(RegionSpec, RegionSpec)
  /// The first minus the second.
  case difference(RegionSpec, RegionSpec)

  /// Levels of the region: 1 for a leaf.
  public var depth: Int {
    switch self {
    case .infinite, .radius, .size: return 1
    case .inverse(let r): return 1 + r.depth
    case .union(let a, let b), .intersection(let a, let b), .difference(let a, let b):
      return 1 + max(a.depth, b.depth)
    }
  }

  /// Region objects in the region, itself included.
  public var nodeCount: Int {
    switch self {
    case .infinite, .radius, .size: return 1
    case .inverse(let r): return 1 + r.nodeCount
    case .union(let a, let b), .intersection(let a, let b), .difference(let a, let b):
      return 1 + a.nodeCount + b.nodeCount
    }
  }

  /// The JSON key of this form.
  var key: String {
    switch self {
    case .infinite: return "infinite"
    case .radius: return "radius"
    case .size: return "size"
    case .inverse: return "inverse"
    case .union: return "union"
    case .intersection: return "intersection"
    case .difference: return "difference"
    }
  }
}

extension RegionSpec {
  static let fields: [StaticString] = [
    "infinite", "radius", "size", "inverse", "union", "intersection", "difference",
  ]

  /// Reads a region object at `depth` (1 for the outermost), counting its objects in `nodes`.
  init(_ fields: ObjectReader, depth: Int, nodes: inout Int) throws(ProtocolError) {
    guard depth <= Limits.maxRegionDepth else {
      throw ProtocolError(
        .outOfRange,
        "region '\(fields.path)' is nested \(depth) levels deep; a region may be at most "
          + "\(Limits.maxRegionDepth)")
    }
    nodes += 1
    guard nodes <= Limits.maxRegionNodes else {
      throw ProtocolError(
        .outOfRange,
        "region '\(fields.path)' is one region too many: a region may be made of at most "
          + "\(Limits.maxRegionNodes) region objects")
    }
    try fields.rejectUnknownFields(Self.fields)
    var present: [StaticString] = []
    for key in Self.fields where fields.has(key) { present.append(key) }
    guard let key = present.first else {
      throw ProtocolError(
        .missingField,
        "region '\(fields.path)' needs one of infinite, radius, size, inverse, union, "
          + "intersection, difference")
    }
    if present.count > 1 { throw fields.exclusive(present[1], with: key) }
    switch "\(key)" {
    case "infinite":
      guard try fields.bool("infinite") == true else {
        throw ProtocolError(
          .outOfRange,
          "field '\(fields.fieldPath("infinite"))' must be true (the empty region is "
            + #"{"inverse": {"infinite": true}})"#)
      }
      self = .infinite
    case "radius":
      self = .radius(try fields.requiredNumber("radius", in: Limits.regionExtent))
    case "size":
      let numbers = try readNumbers(
        fields.node.member("size")!, path: fields.fieldPath("size"), shape: "a size [w, h]",
        in: Limits.regionExtent)
      self = .size(Size(width: numbers[0], height: numbers[1]))
    case "inverse":
      let operand = try fields.requiredObject("inverse", owner: "a region")
      self = .inverse(try RegionSpec(operand, depth: depth + 1, nodes: &nodes))
    default:
      let (a, b) = try Self.operands(fields, key, depth: depth + 1, nodes: &nodes)
      switch "\(key)" {
      case "union": self = .union(a, b)
      case "intersection": self = .intersection(a, b)
      default: self = .difference(a, b)
      }
    }
  }

  /// The two regions `[R, R]` of a union, intersection or difference.
  private static func operands(
    _ fields: ObjectReader, _ key: StaticString, depth: Int, nodes: inout Int
  ) throws(ProtocolError) -> (RegionSpec, RegionSpec) {
    let list = fields.node.member(key)!
    let path = fields.fieldPath(key)
    guard list.kind == .array, list.count == 2 else {
      throw wrongType(path, expected: "an array of 2 regions [R, R]", got: list)
    }
    let first = try ObjectReader(
      list[0], path: "\(path)[0]", owner: "a region", lenient: fields.lenient)
    let a = try RegionSpec(first, depth: depth, nodes: &nodes)
    let second = try ObjectReader(
      list[1], path: "\(path)[1]", owner: "a region", lenient: fields.lenient)
    return (a, try RegionSpec(second, depth: depth, nodes: &nodes))
  }
}

extension ObjectReader {
  /// The region in field `key` (`RegionSpec`), if present.
  func region(_ key: StaticString) throws(ProtocolError) -> RegionSpec? {
    guard let object = try object(key, owner: "a region") else { return nil }
    var nodes = 0
    return try RegionSpec(object, depth: 1, nodes: &nodes)
  }
}
