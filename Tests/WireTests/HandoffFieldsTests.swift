import Primitives
import Testing
import Wire

/// A handoff event as the daemon writes it.
private func encoded(_ handoff: Handoff) -> String {
  var encoder = MessageEncoder()
  encoder.encode(.handoff(handoff))
  return String(decoding: encoder.bytes.dropLast(), as: UTF8.self)
}

/// A handoff's `projection`, `decay`, `detent` and `spring` (a decay's resting point and model,
/// a sheet's choice).
@Suite("Handoff: projection, decay, detent, spring")
struct HandoffFieldsTests {
  private let plain = Handoff(
    session: "s", item: "card", gestureVelocity: Vector(dx: 0, dy: -1500),
    itemVelocity: Vector(dx: 0, dy: -1500))

  @Test("each is written only when present, after the others")
  func written() {
    #expect(!encoded(plain).contains("projection"))
    #expect(!encoded(plain).contains("detent"))
    #expect(!encoded(plain).contains("spring"))
    #expect(!encoded(plain).contains("decay"))
    var decayed = plain
    decayed.projection = Point(x: 160, y: -465.25)
    decayed.decay = .fling(friction: 1.5)
    #expect(
      encoded(decayed).hasSuffix(
        #""velocity_error":0,"projection":[160,-465.25],"decay":{"friction":1.5}}"#))
    var sheet = plain
    sheet.projection = Point(x: 160, y: -465.25)
    sheet.detent = "medium"
    sheet.spring = SpringParameters(mass: 1, stiffness: 100, damping: 10)
    #expect(
      encoded(sheet).hasSuffix(
        #""projection":[160,-465.25],"detent":"medium","spring":{"mass":1,"stiffness":100,"#
          + #""damping":10,"damping_ratio":0.5,"response":0.628319,"duration":0.628319,"#
          + #""bounce":0.5}}"#))
  }

  @Test("the client's decoder reads them back")
  func decoded() throws {
    var sheet = plain
    sheet.projection = Point(x: 12.5, y: 300)
    sheet.detent = "large"
    sheet.spring = SpringParameters(mass: 2, stiffness: 300, damping: 25.5)
    var flung = plain
    flung.projection = Point(x: 40, y: -20.5)
    for model in [
      DecayModel.scrollView(decelerationRate: 0.9985), .fling(friction: 2),
      .frictionSimulation(drag: 0.135),
    ] {
      flung.decay = model
      let message = try ServerMessageDecoder().decode(encoded(flung))
      #expect(message == .event(.handoff(flung)), "\(encoded(flung))")
    }
    for handoff in [plain, sheet] {
      let message = try ServerMessageDecoder().decode(encoded(handoff))
      #expect(message == .event(.handoff(handoff)), "\(encoded(handoff))")
    }
  }
}
