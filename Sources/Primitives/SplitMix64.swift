/// SplitMix64 (Steele, Lea and Flood 2014): a few lines of fully specified arithmetic, so a seed
/// names the same sequence on every machine and toolchain (the standard library's generator and
/// its `random(in:using:)` algorithms are not specified). What the benchmarks' seeded drags and
/// the tests' seeded samples draw from.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform in [lo, hi), from the top 53 bits.
  public mutating func uniform(_ lo: Double, _ hi: Double) -> Double {
    lo + (hi - lo) * Double(next() >> 11) / 9_007_199_254_740_992
  }

  /// Uniform in 0..<n (the modulo bias is irrelevant for a small n).
  public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
