import Glibc

/// Smooth gradient noise over two dimensions of space and one of time (Perlin's construction).
///
/// The lattice's corner gradients come from a hash of the seed and the corner, so there is no
/// table to shuffle and the same seed gives the same noise everywhere, on every machine. Each
/// value is a smooth (C²) function of its coordinates, 0 at every lattice point, and within
/// −1…1. Channels are independent noises of the same seed (one per vector component).
struct GradientNoise: Sendable {
  let seed: UInt64

  /// Perlin's twelve cube-edge gradients, padded to sixteen so a 4-bit hash picks one.
  private static let gradients: [(Double, Double, Double)] = [
    (1, 1, 0), (-1, 1, 0), (1, -1, 0), (-1, -1, 0), (1, 0, 1), (-1, 0, 1), (1, 0, -1), (-1, 0, -1),
    (0, 1, 1), (0, -1, 1), (0, 1, -1), (0, -1, -1), (1, 1, 0), (0, -1, 1), (-1, 1, 0), (0, -1, -1),
  ]
  /// Lattice coordinates beyond this are folded back (noise repeats there, far off any screen).
  private static let latticeLimit = 1e15

  /// The noise at (x, y, z), in lattice cells, for one channel: within −1…1.
  func value(_ x: Double, _ y: Double, _ z: Double, channel: UInt64) -> Double {
    guard x.isFinite, y.isFinite, z.isFinite else { return 0 }
    let fx = x.rounded(.down)
    let fy = y.rounded(.down)
    let fz = z.rounded(.down)
    let (i, j, k) = (Self.cell(fx), Self.cell(fy), Self.cell(fz))
    let (dx, dy, dz) = (x - fx, y - fy, z - fz)
    let base = Self.mix(seed ^ Self.mix(channel))
    func corner(_ a: Int64, _ b: Int64, _ c: Int64) -> Double {
      var h = Self.mix(base ^ UInt64(bitPattern: i &+ a))
      h = Self.mix(h ^ UInt64(bitPattern: j &+ b))
      h = Self.mix(h ^ UInt64(bitPattern: k &+ c))
      let g = Self.gradients[Int(h >> 60)]
      return g.0 * (dx - Double(a)) + g.1 * (dy - Double(b)) + g.2 * (dz - Double(c))
    }
    let (u, v, w) = (Self.fade(dx), Self.fade(dy), Self.fade(dz))
    let x00 = Self.lerp(corner(0, 0, 0), corner(1, 0, 0), u)
    let x10 = Self.lerp(corner(0, 1, 0), corner(1, 1, 0), u)
    let x01 = Self.lerp(corner(0, 0, 1), corner(1, 0, 1), u)
    let x11 = Self.lerp(corner(0, 1, 1), corner(1, 1, 1), u)
    let n = Self.lerp(Self.lerp(x00, x10, v), Self.lerp(x01, x11, v), w)
    // Perlin's noise with these gradients peaks a little below 1; clamp so the bound is exact.
    return min(max(n, -1), 1)
  }

  private static func cell(_ v: Double) -> Int64 {
    Int64(v.truncatingRemainder(dividingBy: latticeLimit))
  }

  /// Perlin's quintic fade 6t⁵ − 15t⁴ + 10t³: zero first and second derivatives at 0 and 1.
  private static func fade(_ t: Double) -> Double { t * t * t * (t * (t * 6 - 15) + 10) }

  private static func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { a + t * (b - a) }

  /// SplitMix64's finalizer: a bijective, well-mixed hash of 64 bits.
  private static func mix(_ value: UInt64) -> UInt64 {
    var z = value &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
