import Glibc

/// The exact solution of m·x″ + c·x′ + k·x = 0 along one axis, from displacement x₀ and
/// velocity v₀ at t = 0, in every damping regime.
///
/// With σ = c / 2m and ω₀² = k / m, every regime is
///
///     x(t) = C(t)·x₀ + S(t)·(v₀ + σx₀)
///     v(t) = C(t)·v₀ − S(t)·(σv₀ + ω₀²x₀)
///
/// where, with ω = √|ω₀² − σ²|:
/// - under-damped (σ < ω₀): C = e^(−σt)·cos ωt, S = e^(−σt)·sin(ωt)/ω;
/// - critically damped (σ = ω₀): C = e^(−σt), S = e^(−σt)·t;
/// - over-damped (σ > ω₀): C = e^(−σt)·cosh ωt, S = e^(−σt)·sinh(ωt)/ω, computed as
///   (e^(−r₁t) + e^(−r₂t))/2 and e^(−r₁t)·(−expm1(−2ωt))/2ω with r₁ = ω₀²/(σ + ω) (the slow
///   rate, free of the cancellation in σ − ω) and r₂ = σ + ω, so that no term overflows.
///
/// Near ζ = 1 none of these divides 0 by 0: ω is 0 only when the regime is critical, and
/// sin(ωt)/ω and −expm1(−2ωt)/2ω tend to t as ω shrinks, so the three forms meet continuously.
/// For any valid parameters (`SpringField.range`) and any finite t ≥ 0 every term is finite:
/// the exponentials only decay and are at most 1.
public struct SpringSolution: Equatable, Sendable {
  /// σ = c / 2m, the envelope's decay rate (1/s).
  public let decayRate: Double
  /// ω₀² = k / m (1/s²).
  public let naturalFrequencySquared: Double
  /// ω = √|ω₀² − σ²|: the damped angular frequency (under-damped), the spread of the two
  /// decay rates (over-damped), 0 (critical).
  private let omega: Double
  private let regime: Regime

  private enum Regime {
    case under
    case critical
    case over
  }

  public init(_ parameters: SpringParameters) {
    let sigma = parameters.damping / (2 * parameters.mass)
    let omega0Squared = parameters.stiffness / parameters.mass
    let omega0 = omega0Squared.squareRoot()
    decayRate = sigma
    naturalFrequencySquared = omega0Squared
    // (ω₀ − σ)(ω₀ + σ) rather than ω₀² − σ²: exact sign, less cancellation near ζ = 1.
    let difference = (omega0 - sigma) * (omega0 + sigma)
    omega = abs(difference).squareRoot()
    regime = difference > 0 ? .under : difference < 0 ? .over : .critical
  }

  /// C(t) and S(t) of the solution (see the type's comment).
  public func coefficients(at t: Double) -> (c: Double, s: Double) {
    switch regime {
    case .under:
      let envelope = exp(-decayRate * t)
      return (envelope * cos(omega * t), envelope * sin(omega * t) / omega)
    case .critical:
      let envelope = exp(-decayRate * t)
      return (envelope, envelope * t)
    case .over:
      let slow = naturalFrequencySquared / (decayRate + omega)
      let fast = decayRate + omega
      let slowDecay = exp(-slow * t)
      return ((slowDecay + exp(-fast * t)) / 2, slowDecay * -expm1(-2 * omega * t) / (2 * omega))
    }
  }

  /// Displacement and velocity at `t` from displacement `x0` and velocity `v0` at 0.
  public func state(at t: Double, displacement x0: Double, velocity v0: Double)
    -> (displacement: Double, velocity: Double)
  {
    let (c, s) = coefficients(at: t)
    return state(c: c, s: s, displacement: x0, velocity: v0)
  }

  /// Displacement and velocity from coefficients already evaluated (one evaluation serves
  /// both axes of a 2-D motion).
  func state(c: Double, s: Double, displacement x0: Double, velocity v0: Double)
    -> (displacement: Double, velocity: Double)
  {
    (
      c * x0 + s * (v0 + decayRate * x0),
      c * v0 - s * (decayRate * v0 + naturalFrequencySquared * x0)
    )
  }
}
