import Primitives

/// An attachment behavior (UIAttachmentBehavior): ties an item to an anchor point or to another
/// item.
///
/// Each `kind` takes the fields of the UIKit initializer it stands for; any other field is an
/// `unknown_field` error:
///
/// | kind | required | optional |
/// |---|---|---|
/// | `distance` (default) | `item`, `to` or `anchor` | `offset`, `to_offset` (with `to`), `length`, `damping`, `frequency`, `friction_torque` |
/// | `sliding` | `item`, `anchor`, `axis` | `to`, `range` (must include 0), `friction_torque` |
/// | `limit` | `item`, `to` | `offset`, `to_offset`, `length`, `friction_torque` |
/// | `fixed` | `item`, `to`, `anchor` | — |
/// | `pin` | `item`, `to`, `anchor` | `range` (radians), `friction_torque` |
public struct AttachmentSpec: Equatable, Sendable {
  public var id: String?
  public var kind: AttachmentKind
  /// The attached item.
  public var item: String
  /// The other item, for item-to-item attachments; never `item` itself.
  public var to: String?
  /// The anchor point in reference coordinates.
  public var anchor: Point?
  /// Where the attachment holds `item`, relative to its center (default the center).
  public var offset: Vector?
  /// Where it holds `to`, relative to that item's center.
  public var toOffset: Vector?
  /// Default: the distance when the attachment is created.
  public var length: Double?
  /// Damping ratio of a spring, in `Limits.attachmentDamping`.
  public var damping: Double?
  /// Spring frequency in Hz, in `Limits.frequency`; 0 (default) is rigid.
  public var frequency: Double?
  /// Axis of translation of a sliding attachment; not zero (the engine normalizes it).
  public var axis: Vector?
  /// Sliding: the translation range (points, contains 0); pin: the rotation range (radians).
  /// `nil` is unlimited (UIFloatRangeInfinite).
  public var range: FloatRange?
  public var frictionTorque: Double?
  /// Rules run after every step (`ActionRule`).
  public var action: [ActionRule]

  public init(
    id: String? = nil, kind: AttachmentKind = .distance, item: String, to: String? = nil,
    anchor: Point? = nil, offset: Vector? = nil, toOffset: Vector? = nil,
    length: Double? = nil, damping: Double? = nil, frequency: Double? = nil,
    axis: Vector? = nil, range: FloatRange? = nil, frictionTorque: Double? = nil,
    action: [ActionRule] = []
  ) {
    self.id = id
    self.kind = kind
    self.item = item
    self.to = to
    self.anchor = anchor
    self.offset = offset
    self.toOffset = toOffset
    self.length = length
    self.damping = damping
    self.frequency = frequency
    self.axis = axis
    self.range = range
    self.frictionTorque = frictionTorque
    self.action = action
  }
}

/// The kinds of attachment: UIKit's iOS 7 distance attachment and the iOS 9 factories.
public enum AttachmentKind: String, CaseIterable, Sendable {
  /// A rod (frequency 0) or a spring between the item and an anchor or another item.
  case distance
  /// Slides along an axis without relative rotation.
  case sliding
  /// A rope: only a maximum distance between two items.
  case limit
  /// Fuses two items at an anchor.
  case fixed
  /// Two items rotate independently around an anchor.
  case pin

  /// The fields an attachment of this kind defines.
  var fields: [StaticString] { Self.fieldTable[self] ?? [] }

  /// The field lists, built once.
  private static let fieldTable: [AttachmentKind: [StaticString]] = Dictionary(
    uniqueKeysWithValues: allCases.map { ($0, $0.definedFields) })

  private var definedFields: [StaticString] {
    let common: [StaticString] = ["type", "id", "kind", "item", "action"]
    switch self {
    case .distance:
      return common + [
        "to", "anchor", "offset", "to_offset", "length", "damping", "frequency", "friction_torque",
      ]
    case .sliding: return common + ["anchor", "axis", "to", "range", "friction_torque"]
    case .limit: return common + ["to", "offset", "to_offset", "length", "friction_torque"]
    case .fixed: return common + ["to", "anchor"]
    case .pin: return common + ["to", "anchor", "range", "friction_torque"]
    }
  }
}

extension AttachmentSpec {
  init(_ fields: ObjectReader) throws(ProtocolError) {
    let kind = try fields.word("kind", as: AttachmentKind.self) ?? .distance
    var typed = fields
    typed.owner = "a '\(kind.rawValue)' attachment"
    try typed.rejectUnknownFields(kind.fields)
    let id = try typed.name("id")
    let item = try typed.requiredName("item")
    let to = try typed.name("to")
    let anchor = try typed.point("anchor")
    switch kind {
    case .distance:
      if to != nil, anchor != nil { throw typed.exclusive("anchor", with: "to") }
      if to == nil, anchor == nil {
        throw ProtocolError(
          .missingField, "a 'distance' attachment needs 'to' (an item) or 'anchor' (a point)")
      }
      if to == nil, typed.has("to_offset") {
        throw ProtocolError(
          .unknownField, "field '\(typed.fieldPath("to_offset"))' is only defined with 'to'")
      }
    case .sliding:
      if anchor == nil { throw typed.missing("anchor") }
    case .limit:
      if to == nil { throw typed.missing("to") }
    case .fixed, .pin:
      if to == nil { throw typed.missing("to") }
      if anchor == nil { throw typed.missing("anchor") }
    }
    if let to, to == item {
      throw ProtocolError(
        .invalidScene, "an attachment cannot tie item '\(quoted(item))' to itself")
    }
    let axis = try typed.vector("axis", in: Limits.coordinate)
    if kind == .sliding {
      guard let axis else { throw typed.missing("axis") }
      guard axis.dx != 0 || axis.dy != 0 else {
        throw ProtocolError(.outOfRange, "field '\(typed.fieldPath("axis"))' must not be zero")
      }
    }
    let range = try typed.range("range", in: kind == .pin ? Limits.angle : Limits.coordinate)
    if kind == .sliding, let range, !(range.minimum <= 0 && 0 <= range.maximum) {
      throw ProtocolError(
        .outOfRange, "field '\(typed.fieldPath("range"))' of a sliding attachment must include 0")
    }
    self.init(
      id: id, kind: kind, item: item, to: to, anchor: anchor,
      offset: try typed.vector("offset", in: Limits.coordinate),
      toOffset: try typed.vector("to_offset", in: Limits.coordinate),
      length: try typed.number("length", in: Limits.length),
      damping: try typed.number("damping", in: Limits.attachmentDamping),
      frequency: try typed.number("frequency", in: Limits.frequency),
      axis: axis, range: range,
      frictionTorque: try typed.number("friction_torque", in: Limits.frictionTorque),
      action: try typed.actionRules() ?? [])
  }
}
