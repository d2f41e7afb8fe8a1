extension JSONWriter {
  /// Appends `value` as the shortest text that reads back as the same double (Swift's shortest
  /// round-trip digits): `160`, `0.1`, `0.016666666666666666`, `0.00001`, `1e+21`, `5e-324`.
  /// Positional from 1e-9 up to 1e16, in exponent form outside; `-0` is written `0`. A
  /// non-finite value, which no request may hold, is written `0` (the daemon then answers
  /// `out_of_range`) and counted in `nonFiniteCount`.
  public mutating func exactNumber(_ value: Double) {
    guard value.isFinite else {
      nonFiniteCount += 1
      byte("0")
      return
    }
    if value == 0 {
      byte("0")
      return
    }
    if value.magnitude < 1e15, value == value.rounded(.towardZero) {
      integer(Int(value))
      return
    }
    let text = value.description
    guard let e = text.firstIndex(of: "e") else {
      // Positional already; an integral value ends in ".0", which JSON does not need.
      let trimmed = text.hasSuffix(".0") ? text.dropLast(2) : Substring(text)
      bytes.append(contentsOf: trimmed.utf8)
      return
    }
    let exponent = Int(text[text.index(after: e)...]) ?? 0
    guard (-9)...(-1) ~= exponent else {
      bytes.append(contentsOf: text.utf8)
      return
    }
    // d.ddd × 10^-k, 1 ≤ k ≤ 9: "0." then k − 1 zeros, then the digits.
    let mantissa = text[..<e]
    if mantissa.hasPrefix("-") { byte("-") }
    raw("0.")
    for _ in 0..<(-exponent - 1) { byte("0") }
    for character in mantissa.utf8 where character != UInt8(ascii: "-") {
      if character != UInt8(ascii: ".") { bytes.append(character) }
    }
  }
}
