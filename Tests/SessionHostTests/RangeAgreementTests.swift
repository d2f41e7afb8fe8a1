import Dynamics
import Foundation
import Primitives
import Testing
import Wire

/// Every numeric wire range (`Limits`) that the engine also clamps (`PropertyRanges`): the wire
/// never accepts a value the engine would change, and the reply reports what was sent. A wire
/// range equal to the engine's is derived from it (`Limits`); two are narrower on purpose
/// (elasticity and falloff: the reasons are in `PropertyRanges`).
@Suite("Ranges: wire against engine")
struct RangeAgreementTests {
  struct Pair: Sendable, CustomTestStringConvertible {
    let name: String
    let wire: NumberRange
    let engine: ClosedRange<Double>
    /// Sets `value` on a fresh engine object and reads it back.
    let engineKeeps: @Sendable (Double) -> Double
    var testDescription: String { name }
  }

  /// Every range of `Limits` with an engine counterpart. A new clamp in the engine gets its
  /// range in `PropertyRanges` and a row here.
  static let pairs: [Pair] = [
    item("elasticity", Limits.elasticity, PropertyRanges.elasticity, \.elasticity),
    item("friction", Limits.friction, PropertyRanges.friction, \.friction),
    item("density", Limits.density, PropertyRanges.density, \.density),
    item("resistance", Limits.resistance, PropertyRanges.resistance, \.resistance),
    item(
      "angular_resistance", Limits.angularResistance, PropertyRanges.resistance,
      \.angularResistance),
    item("charge", Limits.charge, PropertyRanges.charge, \.charge),
    Pair(
      name: "snap damping", wire: Limits.snapDamping, engine: PropertyRanges.snapDamping,
      engineKeeps: { value in
        let item = try! DynamicItem(
          identifier: "a", center: Point(x: 0, y: 0), size: Size(width: 10, height: 10))
        let snap = SnapBehavior(item: item, snapTo: Point(x: 0, y: 0))
        snap.damping = value
        return snap.damping
      }),
    field("strength", Limits.fieldStrength, PropertyRanges.fieldStrength, \.strength),
    field("falloff", Limits.falloff, PropertyRanges.falloff, \.falloff),
    field(
      "minimum_radius", Limits.minimumRadius, PropertyRanges.minimumRadius,
      \.minimumRadius),
    field("smoothness", Limits.smoothness, PropertyRanges.smoothness, \.smoothness),
    field(
      "animation_speed", Limits.animationSpeed, PropertyRanges.animationSpeed,
      \.animationSpeed),
    Pair(
      name: "field direction", wire: Limits.fieldDirection, engine: PropertyRanges.fieldDirection,
      engineKeeps: { value in
        let field = FieldBehavior(kind: .linearGravity)
        field.direction = Vector(dx: value, dy: 0)
        return field.direction.dx
      }),
  ]

  static func item(
    _ name: String, _ wire: NumberRange, _ engine: ClosedRange<Double>,
    _ key: ReferenceWritableKeyPath<DynamicItemBehavior, Double> & Sendable
  ) -> Pair {
    Pair(
      name: name, wire: wire, engine: engine,
      engineKeeps: { value in
        let behavior = DynamicItemBehavior()
        behavior[keyPath: key] = value
        return behavior[keyPath: key]
      })
  }

  static func field(
    _ name: String, _ wire: NumberRange, _ engine: ClosedRange<Double>,
    _ key: ReferenceWritableKeyPath<FieldBehavior, Double> & Sendable
  ) -> Pair {
    Pair(
      name: name, wire: wire, engine: engine,
      engineKeeps: { value in
        let field = FieldBehavior(kind: .noise)
        field[keyPath: key] = value
        return field[keyPath: key]
      })
  }

  @Test("the wire range is inside the engine's", arguments: pairs)
  func wireWithinEngine(_ pair: Pair) {
    #expect(pair.engine.contains(pair.wire.lowerBound))
    #expect(pair.engine.contains(pair.wire.upperBound))
  }

  @Test("the engine keeps every value at the wire range's edges", arguments: pairs)
  func engineKeepsWireEdges(_ pair: Pair) {
    let lowest = pair.wire.excludesLowerBound ? pair.wire.lowerBound.nextUp : pair.wire.lowerBound
    let middle = (pair.wire.lowerBound + pair.wire.upperBound) / 2
    for value in [lowest, middle, pair.wire.upperBound] {
      #expect(pair.wire.contains(value))
      #expect(pair.engineKeeps(value) == value, "\(pair.name) = \(value)")
    }
    // Just beyond the wire's upper edge the wire refuses, so the engine's clamp is never met.
    #expect(!pair.wire.contains(pair.wire.upperBound.nextUp))
  }

  @Test("a scene's resistance above the old engine cap is reported as sent")
  func resistanceReportedAsSent() throws {
    let rig = HostRig()
    let client = rig.connect()
    try client.expectOK(
      #"{"op":"open","session":"r","clock":"manual","scene":{"items":[{"id":"a","#
        + #""center":[10,10],"size":[10,10]}],"behaviors":[{"type":"dynamic_item","id":"p","#
        + #""items":["a"],"resistance":5000,"angular_resistance":1e6}]}}"#)
    try client.expectOK(#"{"op":"add_velocity","session":"r","item":"a","velocity":[100,0]}"#)
    try client.expectOK(#"{"op":"step","session":"r","count":2,"dt":0.01}"#)
    let reply = try client.expectOK(#"{"op":"behaviors","session":"r"}"#).reply
    let entries = try #require(reply.object["behaviors"] as? [[String: Any]])
    let props = try #require(entries.first)
    #expect((props["resistance"] as? NSNumber)?.doubleValue == 5000)
    #expect((props["angular_resistance"] as? NSNumber)?.doubleValue == 1e6)
    try client.expectError(
      "out_of_range",
      #"{"op":"set_behavior","session":"r","behavior":"p","resistance":1000001}"#)
    rig.expectFinite()
  }
}
