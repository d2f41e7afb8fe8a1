import JSON
import Primitives

/// Reads the fields of one JSON object of a request, with the protocol's checks and messages.
///
/// Every object is first checked against the list of fields its owner defines
/// (`rejectUnknownFields`), so a misspelt field is an `unknown_field` error, never ignored. The
/// getters return `nil` for an absent field and throw `wrong_type`, `invalid_number` or
/// `out_of_range` for a present one that is wrong; the `required…` forms throw `missing_field`.
/// `null` is a wrong type, not an absent field. Messages name the field by its path from the
/// request, e.g. `scene.items[2].size[0]`; paths are only built when an error is thrown. Public
/// only as the parameter of `OpRequest.read`: every getter is the module's own.
public struct ObjectReader {
  let node: JSONNode
  /// Path of this object from the request root ("" for the request itself).
  let path: String
  /// What defines this object's fields, for messages: "op 'tap'", "a 'snap' behavior", "an item".
  var owner: String
  /// Whether fields nobody defined are ignored rather than refused: for reading the daemon's
  /// replies, which a newer daemon may extend (`ServerMessageDecoder`). Objects read from this
  /// one inherit it.
  let lenient: Bool

  /// Wraps `node`, which must be an object.
  init(_ node: JSONNode, path: String, owner: String, lenient: Bool = false)
    throws(ProtocolError)
  {
    guard node.kind == .object else {
      throw wrongType(path, expected: "an object", got: node)
    }
    self.node = node
    self.path = path
    self.owner = owner
    self.lenient = lenient
  }

  /// The path of the field `key` of this object.
  func fieldPath(_ key: StaticString) -> String {
    path.isEmpty ? "\(key)" : "\(path).\(key)"
  }

  /// Whether the object has the field `key`.
  func has(_ key: StaticString) -> Bool {
    node.member(key) != nil
  }

  /// Whether the field `key` is present and `null` (where a field allows it, "none").
  func isNull(_ key: StaticString) -> Bool {
    node.member(key)?.kind == .null
  }

  /// Throws `unknown_field` for the first key (in wire order) that is not in `allowed`.
  func rejectUnknownFields(_ allowed: [StaticString]) throws(ProtocolError) {
    if lenient { return }
    try node.forEachMember { (key, _) throws(ProtocolError) in
      guard !allowed.contains(where: { equals($0, key) }) else { return }
      let name = String(decoding: key, as: UTF8.self)
      let field = quoted(path.isEmpty ? name : "\(path).\(name)")
      throw ProtocolError(
        .unknownField,
        "field '\(field)' is not defined for \(owner)"
          + didYouMean(name, among: allowed.map { "\($0)" }))
    }
  }

  /// The `missing_field` error for `key`.
  func missing(_ key: StaticString) -> ProtocolError {
    ProtocolError(.missingField, "field '\(fieldPath(key))' is required for \(owner)")
  }

  /// The `unknown_field` error for a field that is defined but cannot go with `other`.
  func exclusive(_ key: StaticString, with other: StaticString) -> ProtocolError {
    ProtocolError(
      .unknownField,
      "field '\(fieldPath(key))' cannot be combined with '\(other)' in \(owner); send one of them")
  }

  // MARK: Scalars

  func number(_ key: StaticString, in range: NumberRange) throws(ProtocolError) -> Double? {
    guard let value = node.member(key) else { return nil }
    return try readNumber(value, path: fieldPath(key), in: range)
  }

  func requiredNumber(_ key: StaticString, in range: NumberRange) throws(ProtocolError) -> Double {
    guard let value = try number(key, in: range) else { throw missing(key) }
    return value
  }

  /// A whole number in `range` (e.g. `count`).
  func integer(_ key: StaticString, in range: ClosedRange<Int>) throws(ProtocolError) -> Int? {
    let bounds = NumberRange.closed(Double(range.lowerBound), Double(range.upperBound))
    guard let value = try number(key, in: bounds) else { return nil }
    guard value == value.rounded() else {
      throw ProtocolError(
        .outOfRange, "field '\(fieldPath(key))' must be a whole number (got \(plainNumber(value)))")
    }
    return Int(value)
  }

  func bool(_ key: StaticString) throws(ProtocolError) -> Bool? {
    guard let value = node.member(key) else { return nil }
    guard value.kind == .bool else {
      throw wrongType(fieldPath(key), expected: "a boolean", got: value)
    }
    return value.bool
  }

  /// A name: a string of `Limits.nameBytes` bytes without control or bidirectional formatting
  /// characters.
  func name(_ key: StaticString) throws(ProtocolError) -> String? {
    guard let value = node.member(key) else { return nil }
    return try readName(value, path: fieldPath(key))
  }

  func requiredName(_ key: StaticString) throws(ProtocolError) -> String {
    guard let value = try name(key) else { throw missing(key) }
    return value
  }

  /// One of the words of `Word` (e.g. a gesture phase).
  func word<Word: RawRepresentable & CaseIterable>(
    _ key: StaticString, as type: Word.Type
  ) throws(ProtocolError) -> Word? where Word.RawValue == String {
    guard let value = node.member(key) else { return nil }
    guard value.kind == .string else {
      throw wrongType(fieldPath(key), expected: "a string", got: value)
    }
    let text = value.string
    guard let word = Word(rawValue: text) else {
      let words = Word.allCases.map(\.rawValue).joined(separator: ", ")
      throw ProtocolError(
        .outOfRange,
        "field '\(fieldPath(key))' must be one of \(words) (got '\(quoted(text))')")
    }
    return word
  }

  func requiredWord<Word: RawRepresentable & CaseIterable>(
    _ key: StaticString, as type: Word.Type
  ) throws(ProtocolError) -> Word where Word.RawValue == String {
    guard let value = try word(key, as: type) else { throw missing(key) }
    return value
  }

  // MARK: Geometry

  func point(_ key: StaticString, in range: NumberRange = Limits.coordinate)
    throws(ProtocolError) -> Point?
  {
    guard let value = node.member(key) else { return nil }
    return try readPoint(value, path: fieldPath(key), in: range)
  }

  func requiredPoint(_ key: StaticString, in range: NumberRange = Limits.coordinate)
    throws(ProtocolError) -> Point
  {
    guard let value = try point(key, in: range) else { throw missing(key) }
    return value
  }

  func vector(_ key: StaticString, in range: NumberRange) throws(ProtocolError) -> Vector? {
    guard let value = node.member(key) else { return nil }
    let numbers = try readNumbers(
      value, path: fieldPath(key), shape: "a vector [dx, dy]", in: range)
    return Vector(dx: numbers[0], dy: numbers[1])
  }

  func size(_ key: StaticString) throws(ProtocolError) -> Size? {
    guard let value = node.member(key) else { return nil }
    let numbers = try readNumbers(
      value, path: fieldPath(key), shape: "a size [w, h]", in: Limits.side)
    return Size(width: numbers[0], height: numbers[1])
  }

  /// A rectangle given as `[w, h]` (origin 0, 0) or `[x, y, w, h]`.
  /// A size `[w, h]` (origin 0, 0) or a rectangle `[x, y, w, h]`, each side in `sides`.
  func rect(_ key: StaticString, sides: NumberRange = Limits.side) throws(ProtocolError) -> Rect? {
    guard let value = node.member(key) else { return nil }
    let path = fieldPath(key)
    let shape = "a size [w, h] or a rectangle [x, y, w, h]"
    guard value.kind == .array, value.count == 2 || value.count == 4 else {
      throw wrongType(path, expected: shape, got: value)
    }
    if value.count == 2 {
      let size = try readNumbers(value, path: path, shape: shape, in: sides)
      return Rect(x: 0, y: 0, width: size[0], height: size[1])
    }
    let x = try readNumber(value[0], path: "\(path)[0]", in: Limits.coordinate)
    let y = try readNumber(value[1], path: "\(path)[1]", in: Limits.coordinate)
    let width = try readNumber(value[2], path: "\(path)[2]", in: sides)
    let height = try readNumber(value[3], path: "\(path)[3]", in: sides)
    return Rect(x: x, y: y, width: width, height: height)
  }

  func insets(_ key: StaticString) throws(ProtocolError) -> EdgeInsets? {
    guard let value = node.member(key) else { return nil }
    let numbers = try readNumbers(
      value, path: fieldPath(key), shape: "insets [top, left, bottom, right]", count: 4,
      in: Limits.inset)
    return EdgeInsets(top: numbers[0], left: numbers[1], bottom: numbers[2], right: numbers[3])
  }

  /// An interval `[min, max]` with `min ≤ max`.
  func range(_ key: StaticString, in bounds: NumberRange) throws(ProtocolError) -> FloatRange? {
    guard let value = node.member(key) else { return nil }
    let numbers = try readNumbers(
      value, path: fieldPath(key), shape: "a range [min, max]", in: bounds)
    guard numbers[0] <= numbers[1] else {
      throw ProtocolError(
        .outOfRange,
        "field '\(fieldPath(key))' must have min ≤ max (got [\(plainNumber(numbers[0])), "
          + "\(plainNumber(numbers[1]))])")
    }
    return FloatRange(minimum: numbers[0], maximum: numbers[1])
  }

  /// A list of points `[[x, y], …]` whose length is in `count`.
  func points(_ key: StaticString, count: ClosedRange<Int>) throws(ProtocolError) -> [Point]? {
    guard let list = try array(key, count: count, noun: "points") else { return nil }
    var points: [Point] = []
    points.reserveCapacity(list.count)
    for index in 0..<list.count {
      points.append(
        try readPoint(list[index], path: "\(fieldPath(key))[\(index)]", in: Limits.coordinate))
    }
    return points
  }

  // MARK: Collections

  /// A list of names, at most `maxCount`.
  func names(_ key: StaticString, maxCount: Int) throws(ProtocolError) -> [String]? {
    guard let list = try array(key, count: 0...maxCount, noun: "names") else { return nil }
    var names: [String] = []
    names.reserveCapacity(list.count)
    for index in 0..<list.count {
      names.append(try readName(list[index], path: "\(fieldPath(key))[\(index)]"))
    }
    return names
  }

  func requiredNames(_ key: StaticString, maxCount: Int) throws(ProtocolError) -> [String] {
    guard let value = try names(key, maxCount: maxCount) else { throw missing(key) }
    return value
  }

  /// The object in field `key`, read as defined by `owner`.
  func object(_ key: StaticString, owner: String) throws(ProtocolError) -> ObjectReader? {
    guard let value = node.member(key) else { return nil }
    return try ObjectReader(value, path: fieldPath(key), owner: owner, lenient: lenient)
  }

  func requiredObject(_ key: StaticString, owner: String) throws(ProtocolError) -> ObjectReader {
    guard let value = try object(key, owner: owner) else { throw missing(key) }
    return value
  }

  /// The objects in the array in field `key` (at most `maxCount`), each read as defined by `owner`.
  func objects(_ key: StaticString, maxCount: Int, owner: String) throws(ProtocolError)
    -> [ObjectReader]?
  {
    try objects(key, count: 0...maxCount, owner: owner)
  }

  /// The objects in the array in field `key`, whose number must be in `count`.
  func objects(_ key: StaticString, count: ClosedRange<Int>, owner: String) throws(ProtocolError)
    -> [ObjectReader]?
  {
    guard let list = try array(key, count: count, noun: "elements") else { return nil }
    var objects: [ObjectReader] = []
    objects.reserveCapacity(list.count)
    for index in 0..<list.count {
      objects.append(
        try ObjectReader(
          list[index], path: "\(fieldPath(key))[\(index)]", owner: owner, lenient: lenient))
    }
    return objects
  }

  /// The array in field `key`, whose length must be in `count`.
  private func array(_ key: StaticString, count: ClosedRange<Int>, noun: String)
    throws(ProtocolError) -> JSONNode?
  {
    guard let value = node.member(key) else { return nil }
    guard value.kind == .array else {
      throw wrongType(fieldPath(key), expected: "an array", got: value)
    }
    guard count.contains(value.count) else {
      throw ProtocolError(
        .outOfRange,
        "field '\(fieldPath(key))' must have \(count.lowerBound) to \(count.upperBound) \(noun) "
          + "(got \(value.count))")
    }
    return value
  }
}

// MARK: - Reading single values

/// A finite number in `range`.
func readNumber(_ node: JSONNode, path: @autoclosure () -> String, in range: NumberRange)
  throws(ProtocolError) -> Double
{
  guard node.kind == .number else {
    throw wrongType(path(), expected: "a number", got: node)
  }
  let value = node.double
  guard value.isFinite else {
    throw ProtocolError(.invalidNumber, "field '\(path())' is not a finite number (it overflows)")
  }
  guard range.contains(value) else {
    throw ProtocolError(
      .outOfRange, "field '\(path())' must be \(range.phrase) (got \(plainNumber(value)))")
  }
  return value
}

/// An array of exactly `count` finite numbers in `range`, such as a point or a size.
func readNumbers(
  _ node: JSONNode, path: @autoclosure () -> String, shape: String, count: Int = 2,
  in range: NumberRange
) throws(ProtocolError) -> [Double] {
  guard node.kind == .array, node.count == count else {
    throw wrongType(path(), expected: shape, got: node)
  }
  var numbers: [Double] = []
  numbers.reserveCapacity(count)
  for index in 0..<count {
    numbers.append(try readNumber(node[index], path: "\(path())[\(index)]", in: range))
  }
  return numbers
}

func readPoint(_ node: JSONNode, path: @autoclosure () -> String, in range: NumberRange)
  throws(ProtocolError) -> Point
{
  guard node.kind == .array, node.count == 2 else {
    throw wrongType(path(), expected: "a point [x, y]", got: node)
  }
  return Point(
    x: try readNumber(node[0], path: "\(path())[0]", in: range),
    y: try readNumber(node[1], path: "\(path())[1]", in: range))
}

/// A name: `Limits.nameBytes` bytes of UTF-8 without control or bidirectional formatting
/// characters (`NameCharacters`).
func readName(_ node: JSONNode, path: @autoclosure () -> String) throws(ProtocolError) -> String {
  guard node.kind == .string else {
    throw wrongType(path(), expected: "a string", got: node)
  }
  guard Limits.nameBytes.contains(node.stringByteCount) else {
    throw ProtocolError(
      .outOfRange,
      "field '\(path())' must be a name of \(Limits.nameBytes.lowerBound) to "
        + "\(Limits.nameBytes.upperBound) bytes (got \(node.stringByteCount))")
  }
  if let scalar = node.forbiddenNameCharacter {
    throw ProtocolError(.outOfRange, "field '\(path())' \(NameCharacters.fault(scalar))")
  }
  return node.string
}

func wrongType(_ path: String, expected: String, got node: JSONNode) -> ProtocolError {
  var actual = node.kind.phrase
  if node.kind == .array { actual = "an array of \(node.count) elements" }
  let subject = path.isEmpty ? "the request" : "field '\(path)'"
  return ProtocolError(.wrongType, "\(subject) must be \(expected), not \(actual)")
}

// MARK: - Helpers

/// Whether a borrowed key equals `name`.
func equals(_ name: StaticString, _ key: UnsafeRawBufferPointer) -> Bool {
  name.withUTF8Buffer { $0.elementsEqual(key) }
}

/// Client text for a message, shortened so a reply never grows with the request.
func quoted(_ text: String) -> String {
  let limit = 64
  guard text.utf8.count > limit else { return text }
  return String(decoding: text.utf8.prefix(limit), as: UTF8.self) + "…"
}
