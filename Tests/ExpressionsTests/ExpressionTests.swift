import Expressions
import Testing

/// Names for the tests: width and height of the bounds, and two parameters.
private let names: ExpressionNames = {
  var names = ExpressionNames()
  names.add("width", in: 1...10_000)
  names.add("height", in: 1...10_000)
  names.add("speed", in: 0...5_000)
  names.add("fraction", in: 0...1)
  names.add("release.vy", in: -1e6...1e6)
  return names
}()

/// The value of `text` at `values`; its flat form (`FlatExpression`) must give the same bits,
/// or nil where the expression throws.
private func number(_ text: String, _ values: [Double] = [320, 568, 500, 0.5, -800]) throws
  -> Double
{
  let e = try ExpressionParser.parse(text, names: names, as: .number)
  let flat = FlatExpression(e).number(values)
  do {
    let value = try e.number(values)
    #expect(flat?.bitPattern == value.bitPattern, "\(text): flat \(String(describing: flat))")
    return value
  } catch {
    #expect(flat == nil, "\(text): flat \(String(describing: flat)), the tree throws")
    throw error
  }
}

/// Whether `text` holds at `values`; its flat form must say the same, or nil where the
/// expression throws.
private func condition(_ text: String, _ values: [Double] = [320, 568, 500, 0.5, -800]) throws
  -> Bool
{
  let e = try ExpressionParser.parse(text, names: names, as: .condition)
  let flat = FlatExpression(e).condition(values)
  do {
    let holds = try e.condition(values)
    #expect(flat == holds, "\(text): flat \(String(describing: flat))")
    return holds
  } catch {
    #expect(flat == nil, "\(text): flat \(String(describing: flat)), the tree throws")
    throw error
  }
}

private func parseError(_ text: String, as kind: ExpressionKind = .number) -> ExpressionError? {
  do {
    _ = try ExpressionParser.parse(text, names: names, as: kind)
    return nil
  } catch {
    return error
  }
}

private func intervalError(_ text: String) -> ExpressionError? {
  do {
    let e = try ExpressionParser.parse(text, names: names, as: .number)
    _ = try e.interval(names.entries.map(\.range))
    return nil
  } catch {
    return error
  }
}

@Suite("Expressions")
struct ExpressionTests {
  @Test("arithmetic, precedence, unary minus and the functions")
  func arithmetic() throws {
    #expect(try number("height * 0.5") == 284)
    #expect(try number("height - 20") == 548)
    #expect(try number("1 + 2 * 3") == 7)
    #expect(try number("(1 + 2) * 3") == 9)
    #expect(try number("-height / 2") == -284)
    #expect(try number("10 - 4 - 3") == 3)
    #expect(try number("2e3 + .5") == 2000.5)
    #expect(try number("min(width, height, 100)") == 100)
    #expect(try number("max(width, height)") == 568)
    #expect(try number("clamp(release.vy, -500, 500)") == -500)
    #expect(try number("abs(release.vy) + sign(release.vy)") == 799)
    #expect(try number("floor(2.5) + ceil(2.5) + round(2.5)") == 8)
    #expect(try number("sqrt(width * 5)") == 40)
    #expect(try number("lerp(0, 10, fraction)") == 5)
    #expect(try number("if(release.vy < -speed, 1, 0)") == 1)
    #expect(try number("pi * 2") == Double.pi * 2)
    #expect(try number("nearest(300, 88, 284, 548)") == 284)
    #expect(try number("nearest(186, 284, 88, 548)") == 88, "a tie goes to the least")
    #expect(try number("nearest(width, height)") == 568)
  }

  @Test("comparisons and logic give conditions")
  func conditions() throws {
    #expect(try condition("release.vy < -speed"))
    #expect(try condition("release.vy < -speed or fraction >= 0.9"))
    #expect(try !condition("release.vy < -speed and fraction >= 0.9"))
    #expect(try condition("not fraction > 0.6"))
    #expect(try condition("width != height and width == 320"))
    #expect(try condition("if(width > 100, height > 500, speed < 0)"))
    #expect(try !condition("if(width < 100, height > 500, speed < 0)"))
    #expect(try condition("true") && !condition("false"))
    #expect(try condition("true and not false"))
    #expect(parseError("true + 1")?.message == "'+' takes a number, not a condition")
  }

  @Test("what cannot be read is refused with a message and an offset")
  func syntaxErrors() {
    #expect(parseError("height *")?.message == "the expression ends where a value is expected")
    #expect(parseError("heigth / 2")?.message == "unknown name 'heigth' (did you mean 'height'?)")
    #expect(parseError("heigth / 2")?.offset == 0)
    #expect(parseError("max(width)")?.message == "max() takes 2 to 16 arguments, not 1")
    #expect(parseError("pow(2, 3)")?.message.hasPrefix("unknown function 'pow'") == true)
    #expect(parseError("(width + 1")?.message.hasPrefix("'(' at 0 is not closed") == true)
    #expect(
      parseError("width < height")?.message == "this is a condition, where a number is needed")
    #expect(
      parseError("width", as: .condition)?.message
        == "this is a number, where a condition is needed")
    #expect(
      parseError("width < height < 3", as: .condition)?.message.hasPrefix(
        "comparisons do not chain") == true)
    #expect(parseError("width + (height < 3)")?.message == "'+' takes a number, not a condition")
    #expect(
      parseError("if(width, 1, 2)")?.message
        == "the first argument of if() takes a condition, not a number")
    #expect(parseError("1e999")?.message == "'1e999' is not a finite number")
    #expect(parseError("width width")?.message.hasPrefix("unexpected 'width'") == true)
    #expect(parseError("min + 1")?.message == "'min' is a function: write min(…)")
    #expect(
      parseError(String(repeating: "1+", count: 600) + "1")?.message.hasPrefix(
        "an expression is at most 1000 bytes") == true)
    #expect(
      parseError(String(repeating: "(", count: 40) + "1" + String(repeating: ")", count: 40))?
        .message == "an expression nests at most 32 deep")
    #expect(
      parseError(String(repeating: "1+", count: 200) + "1")?.message.hasPrefix(
        "an expression has at most 256") == true)
  }

  @Test("evaluation refuses what is not a finite number")
  func evaluationErrors() throws {
    #expect(throws: ExpressionError.self) { try number("width / (height - 568)") }
    #expect(throws: ExpressionError.self) { try number("sqrt(release.vy)") }
    #expect(throws: ExpressionError.self) { try number("1e300 * 1e300") }
    #expect(throws: ExpressionError.self) { try number("lerp(-1e308, 1e308, 2)") }
    #expect(throws: ExpressionError.self) { try number("-sqrt(release.vy) + 1") }
    #expect(throws: ExpressionError.self) { try condition("width > 0 and 1 / (width - 320) > 0") }
    #expect(throws: ExpressionError.self) { try condition("if(width / 0 > 1, true, false)") }
    // What `and`, `or` and `if` do not evaluate cannot fail.
    #expect(try !condition("width < 0 and 1 / (width - 320) > 0"))
    #expect(try condition("width > 0 or sqrt(release.vy) > 0"))
    #expect(try number("if(width > 0, 1, width / (height - 568))") == 1)
  }

  /// The flat form gives the tree's value bit for bit at random points, in and out of the
  /// names' ranges, and fails where the tree throws.
  @Test("a flat expression evaluates as its tree does")
  func flat() throws {
    let texts = [
      "height * 0.5 - width / 4", "clamp((release.vy + speed) / max(height, 1), -2, 2)",
      "lerp(width, height, fraction) * sign(release.vy)", "min(abs(release.vy), speed) / width",
      "if(release.vy < -speed, height - 20, round(height * fraction))",
      "nearest(release.vy, -speed, speed * fraction, height)", "sqrt(release.vy) - -fraction",
      "floor(release.vy / 7) + ceil(speed / 3) + max(-0, 0) + min(0, -0)",
      "width / (speed - 250) * 1e300", "if(fraction > 0.5 or not speed < 100, 1, 0)",
      "release.vy < -speed or fraction >= 0.9 and width != height",
    ]
    var generator = SystemRandomNumberGenerator()
    for text in texts {
      for _ in 0..<500 {
        let values = (0..<names.entries.count).map { _ in
          [0, -0.0, 250, 1e300, Double.random(in: -2_000...2_000, using: &generator)].randomElement(
            using: &generator)!
        }
        if (try? ExpressionParser.parse(text, names: names, as: .number)) != nil {
          _ = try? number(text, values)
          _ = try? condition("(\(text)) > 0", values)
        } else {
          _ = try? condition(text, values)
        }
      }
    }
  }

  @Test("intervals bound every value, and refuse what may fail anywhere in the ranges")
  func intervals() throws {
    let ranges = names.entries.map(\.range)
    func interval(_ text: String) throws -> ClosedRange<Double> {
      try ExpressionParser.parse(text, names: names, as: .number).interval(ranges)
    }
    #expect(try interval("height * 0.5") == 0.5...5_000)
    #expect(try interval("height - width") == -9_999...9_999)
    #expect(try interval("clamp(release.vy / 1000, -1, 1)") == -1...1)
    #expect(try interval("width / height") == 0.0001...10_000)
    #expect(try interval("abs(release.vy)") == 0...1e6)
    #expect(try interval("if(speed > 0, 1000 / max(speed, 1), 0)") == 0...1000)
    #expect(
      intervalError("width / speed")?.message
        == "'speed' may be 0 (it takes values in [0, 5000]), so 'width / speed' may divide by "
        + "zero; keep it away from 0, e.g. max(speed, 0.001)")
    #expect(
      intervalError("sqrt(release.vy)")?.message.hasPrefix("'release.vy' may be negative") == true)
    #expect(
      intervalError(
        "release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy * release.vy"
      )?.message.contains("may not be a finite number") == true)
    // An if() narrows the name its condition compares with a constant.
    #expect(intervalError("if(speed >= 1, width / speed, 0)") == nil)
    #expect(intervalError("if(speed < 1, 0, width / speed)") == nil)
  }

  /// Sound: for random values in the ranges, the value is always inside the interval.
  @Test("every value lies in its interval (random points of the box)")
  func soundness() throws {
    let ranges = names.entries.map(\.range)
    let texts = [
      "height * 0.5 - width / 4", "clamp((release.vy + speed) / max(height, 1), -2, 2)",
      "lerp(width, height, fraction) * sign(release.vy)", "min(abs(release.vy), speed) / width",
      "if(release.vy < -speed, height - 20, round(height * fraction))",
      "nearest(release.vy, -speed, speed * fraction, height)",
    ]
    var generator = SystemRandomNumberGenerator()
    for text in texts {
      let e = try ExpressionParser.parse(text, names: names, as: .number)
      let bound = try e.interval(ranges)
      for _ in 0..<2_000 {
        let values = ranges.map { Double.random(in: $0, using: &generator) }
        let value = try e.number(values)
        #expect(bound.contains(value), "\(text) = \(value) at \(values), outside \(bound)")
      }
    }
  }

  @Test("an expression's text reads back as the same expression")
  func description() throws {
    for text in [
      "height * 0.5", "-(width - 3) / 2", "clamp(release.vy, -1, 1) + max(1, 2, 3)",
      "if(width > 3, 1, 2)", "nearest(width, 1, height) + pi", "if(true, 1, 0)",
    ] {
      let e = try ExpressionParser.parse(text, names: names, as: .number)
      #expect(try ExpressionParser.parse(e.description, names: names, as: .number) == e)
    }
  }
}
