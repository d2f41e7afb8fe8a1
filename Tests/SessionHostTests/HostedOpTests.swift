import Testing
import Wire

@testable import SessionHost

/// The op registry as the host serves it: every op of `Op.registry` has its file in
/// `SessionHost/Ops`, through the protocol of the target it declares, so the host finds and
/// checks its session before the op runs.
@Suite("Ops: the registry, hosted")
struct HostedOpTests {
  struct Entry: CustomTestStringConvertible, Sendable {
    let type: any OpRequest.Type
    var testDescription: String { type.name }
  }

  static let entries = Op.registry.map(Entry.init)

  @Test("each op runs through the protocol of its declared target", arguments: entries)
  func hostedByItsTarget(_ entry: Entry) {
    let hostedAs: OpTarget? =
      switch entry.type {
      case is any DaemonOp.Type: .daemon
      case is any AnySessionOp.Type: .session
      case is any TransitionOp.Type: .transition
      case is any SceneOp.Type: .scene
      default: nil
      }
    #expect(hostedAs == entry.type.target, "\(entry.type.name)")
  }

  @Test("words and types are each listed once")
  func listedOnce() {
    let names = Op.registry.map { $0.name }
    #expect(Set(names).count == names.count)
    #expect(Set(Op.registry.map(ObjectIdentifier.init)).count == Op.registry.count)
    for type in Op.registry {
      #expect(Op.named(type.name).map(ObjectIdentifier.init) == ObjectIdentifier(type))
    }
  }
}
