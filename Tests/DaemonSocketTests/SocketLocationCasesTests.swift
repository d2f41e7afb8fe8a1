import DaemonSocket
import Foundation
import Testing

/// The Swift socket-location rule (`SocketLocation`: resolution, then the path check) over every
/// case of `Tests/Shared/socket-location-cases.json`, the table the Python client's copy of the
/// rule passes too.
@Suite("Socket location: shared cases")
struct SocketLocationCasesTests {
  struct Case: Decodable, Sendable, CustomTestStringConvertible {
    struct Expectation: Decodable, Sendable {
      let path: String?
      let directory: String?
      let error: String?
    }
    let name: String
    let socket: String?
    let environment: [String: String]
    let uid: UInt32
    let expect: Expectation
    var testDescription: String { name }
  }

  static let file = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Shared/socket-location-cases.json")

  static var cases: [Case] {
    struct Table: Decodable { let cases: [Case] }
    guard let data = try? Data(contentsOf: file) else { return [] }
    return (try? JSONDecoder().decode(Table.self, from: data).cases) ?? []
  }

  @Test("the table is there and covers every rule and both faults")
  func tableIsThere() {
    let cases = Self.cases
    #expect(cases.count >= 20, "found \(cases.count) cases in \(Self.file.path)")
    let errors = Set(cases.compactMap(\.expect.error))
    #expect(errors == ["invalid_path", "path_too_long"])
    let rules = Set(
      cases.filter { $0.expect.error == nil }.map {
        SocketLocation.resolve(flag: $0.socket, environment: $0.environment, userID: $0.uid).rule
      })
    #expect(rules.count == 4)
  }

  @Test("the rule gives each case's path and directory, or its error", arguments: cases)
  func rule(_ c: Case) {
    let location = SocketLocation.resolve(
      flag: c.socket, environment: c.environment, userID: c.uid)
    let fault = SocketLocation.pathFault(location.path)
    if let error = c.expect.error {
      #expect(fault?.code.rawValue == error, "\(location.path)")
      #expect(fault?.message.isEmpty == false)
    } else {
      #expect(fault == nil, "\(fault?.message ?? "")")
      #expect(location.path == c.expect.path)
      #expect(location.privateDirectory == c.expect.directory)
    }
  }
}
