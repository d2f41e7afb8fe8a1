import Primitives

/// UIKit's units and how they map onto Box2D's SI units.
///
/// Box2D tunes its tolerances for objects of 0.1–10 m, so the engine works at 100 points per
/// metre: a full screen is a few metres. With that scale:
/// - gravity magnitude 1 is 1000 pt/s² (10 m/s²), an acceleration independent of mass;
/// - mass = density × width × height / 10 000 (kg), so a 100×100 item of density 1 weighs 1;
/// - one "UIKit Newton" (the force giving that item 100 pt/s²) is exactly 1 N.
public enum Units {
  /// Points per Box2D metre.
  public static let pointsPerMeter = 100.0
  /// Acceleration of gravity magnitude 1, in pt/s² (UIGravityBehavior).
  public static let gravityAcceleration = 1000.0
  /// Mass of an item (kg) from its UIKit density and bounds size in points.
  public static func mass(density: Double, size: Size) -> Double {
    density * size.width * size.height / (pointsPerMeter * pointsPerMeter)
  }
}

extension Double {
  /// Points to metres.
  var meters: Float { Float(self / Units.pointsPerMeter) }
}

extension Float {
  /// Metres to points.
  var points: Double { Double(self) * Units.pointsPerMeter }
}
