import Foundation
import Strokes
import Testing

/// Every file of `Tests/Shared/strokes` read as `expected.json` says: the samples it gives, or
/// the line and words of its error. The Python client's readers pass the same table.
@Suite("Strokes: shared cases")
struct SharedStrokeCasesTests {
  struct Case: Decodable, Sendable, CustomTestStringConvertible {
    struct Units: Decodable, Sendable {
      let points_per_inch: Double?
      let screen: [Double]?
      let device_info: String?
    }
    struct Expectation: Decodable, Sendable {
      let line: Int
      let contains: String
    }
    let name: String
    let file: String
    let units: Units?
    let samples: [[Double]]?
    let repeated_times: Int?
    let backward_times: Int?
    let error: Expectation?
    var testDescription: String { name }
  }

  static let folder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Shared/strokes")

  static var cases: [Case] {
    struct Table: Decodable { let cases: [Case] }
    guard let data = try? Data(contentsOf: folder.appendingPathComponent("expected.json")) else {
      return []
    }
    return (try? JSONDecoder().decode(Table.self, from: data).cases) ?? []
  }

  static func text(_ name: String) throws -> String {
    try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
  }

  static func read(_ c: Case) throws -> Result<Stroke, StrokeReadError> {
    let format = try #require(StrokeFormat(path: c.file), "\(c.file) names no format")
    var units = StrokeUnits()
    if let ppi = c.units?.points_per_inch { units.pointsPerInch = ppi }
    if let s = c.units?.screen {
      units.screen = MappedScreen(width: s[0], height: s[1], density: s[2])
    }
    if let info = c.units?.device_info { units.deviceInfo = try text(info) }
    let content = try text(c.file)
    return Result { () throws(StrokeReadError) in
      try StrokeReader.read(content, format: format, units: units)
    }
  }

  @Test("the table is there and covers every format, with samples and with errors")
  func tableIsThere() {
    let cases = Self.cases
    #expect(cases.count >= 19, "found \(cases.count) cases in \(Self.folder.path)")
    for format in StrokeFormat.allCases {
      let files = cases.filter { StrokeFormat(path: $0.file) == format }
      #expect(files.contains { $0.samples != nil }, "\(format): no file that reads")
      #expect(files.contains { $0.error != nil }, "\(format): no file that fails")
    }
  }

  @Test("each file gives its samples, or its error with its line", arguments: cases)
  func file(_ c: Case) throws {
    switch try Self.read(c) {
    case .success(let stroke):
      let expected = try #require(
        c.samples, "read, but the case expects \(String(describing: c.error))")
      #expect(stroke.samples.count == expected.count)
      for (got, want) in zip(stroke.samples, expected) {
        let gap = max(abs(got.t - want[0]), abs(got.point.x - want[1]), abs(got.point.y - want[2]))
        #expect(gap <= 1e-9, "got (\(got.t), \(got.point.x), \(got.point.y)), want \(want)")
      }
      #expect(stroke.repeatedTimes == c.repeated_times ?? 0)
      #expect(stroke.backwardTimes == c.backward_times ?? 0)
    case .failure(let error):
      let expected = try #require(c.error, "failed: \(error)")
      #expect(error.line == expected.line, "\(error)")
      #expect(error.message.contains(expected.contains), "\(error)")
      #expect(error.description.hasPrefix("line \(expected.line): "))
    }
  }
}
