/// UIScrollView's rubber band: how far content dragged `x` points past its edge is shown past
/// it, f(x) = (1 − 1 / (x·c / d + 1))·d, with c = 0.55 and d the scroll view's dimension along
/// the drag. f(0) = 0, f′(0) = c (the content first follows the finger at 0.55 of its speed),
/// and f(x) < d for every x: however far the finger goes, the content stays within one
/// dimension of its edge. The curve is the one UIKit's bounce is measured to follow, as given
/// in "Designing Fluid Interfaces" (WWDC 2018) and its published re-creations.
public enum RubberBand {
  /// UIScrollView's constant c.
  public static let coefficient = 0.55

  /// How far past its edge content dragged `overshoot` points past it is shown, with `dimension`
  /// the scroll view's size along the drag (d); negative overshoots mirror positive ones.
  public static func offset(_ overshoot: Double, dimension: Double) -> Double {
    let x = abs(overshoot)
    let shown = (1 - 1 / (x * coefficient / dimension + 1)) * dimension
    return overshoot < 0 ? -shown : shown
  }

  /// `value` held to `range`, anything past either end shown by the rubber band: 1:1 inside,
  /// `offset(_:dimension:)` past an end.
  public static func clamp(
    _ value: Double, to range: ClosedRange<Double>, dimension: Double
  ) -> Double {
    if value > range.upperBound {
      return range.upperBound + offset(value - range.upperBound, dimension: dimension)
    }
    if value < range.lowerBound {
      return range.lowerBound + offset(value - range.lowerBound, dimension: dimension)
    }
    return value
  }
}

extension RubberBand {
  /// The overshoot that `offset(_:dimension:)` shows as `shown`: x = (d / c)·y / (d − y). A sheet
  /// caught past its end starts from it, so that the grip does not make it jump. `shown` is held
  /// within one dimension, where the curve ends.
  public static func overshoot(shown: Double, dimension: Double) -> Double {
    let y = min(abs(shown), dimension * (1 - 1e-9))
    let x = dimension / coefficient * y / (dimension - y)
    return shown < 0 ? -x : x
  }

  /// The inverse of `clamp(_:to:dimension:)`: the unbanded value that shows as `shown`.
  public static func unclamp(
    _ shown: Double, from range: ClosedRange<Double>, dimension: Double
  ) -> Double {
    if shown > range.upperBound {
      return range.upperBound + overshoot(shown: shown - range.upperBound, dimension: dimension)
    }
    if shown < range.lowerBound {
      return range.lowerBound + overshoot(shown: shown - range.lowerBound, dimension: dimension)
    }
    return shown
  }
}
