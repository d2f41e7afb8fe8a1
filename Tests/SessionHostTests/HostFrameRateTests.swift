import Foundation
import Testing

/// Frames at any display rate through the host (issue 40): a `step` of any `dt` gives exactly the
/// frames asked, each at its own time; a realtime session at `fps` sends `fps` frames a second,
/// evenly spaced; and the rate changes neither a release's velocities nor the outcome.
@Suite("Host: frames at any rate")
struct HostFrameRateTests {
  static let rates = [60, 75, 90, 120, 144, 165, 240, 59.94, 143.86]

  @Test("a step of 1/Hz gives every frame asked, t growing by dt, v·dt apart", arguments: rates)
  func manualFrames(hz: Double) throws {
    let rig = HostRig()
    let client = rig.connect()
    try client.expectOK(
      #"{"op":"open","session":"m","clock":"manual","scene":{"bounds":null,"items":[{"id":"a","#
        + #""center":[0,0],"size":[20,20]}],"behaviors":[{"type":"dynamic_item","items":["a"],"#
        + #""resistance":0}]}}"#)
    try client.expectOK(#"{"op":"add_velocity","session":"m","item":"a","velocity":[1000,0]}"#)
    let asked = Int((hz / 6).rounded())
    let dt = 1 / hz
    let step = try client.expectOK(
      #"{"op":"step","session":"m","dt":\#(dt),"count":\#(asked)}"#)
    let frames = step.events("frame")
    #expect(frames.count == asked)
    var x = 0.0
    for (k, frame) in frames.enumerated() {
      let t = try #require(frame.number("t"))
      #expect(abs(t - Double(k + 1) * dt) <= 5e-7, "frame \(k + 1) names \(t)")
      let center = try #require(frame.vector("center", of: "a"))
      // The wire rounds positions to 0.001 pt.
      #expect(abs(center[0] - x - 1000 * dt) <= 0.001 * 1000 * dt + 0.001, "frame \(k + 1)")
      x = center[0]
    }
    let t = try #require(step.reply.number("t"))
    #expect(abs(t - Double(asked) * dt) <= 5e-7)
    rig.expectFinite()
  }

  @Test(
    "a realtime session at fps sends fps frames a second, 1/fps apart",
    arguments: [90, 144, 143.86, 240])
  func realtimeFrames(fps: Double) throws {
    let rig = HostRig()
    let client = rig.connect()
    try client.expectOK(
      #"{"op":"open","session":"r","clock":"realtime","fps":\#(fps),"scene":{"bounds":null,"#
        + #""items":[{"id":"a","center":[0,0],"size":[20,20]}],"behaviors":[{"type":"dynamic_item","#
        + #""items":["a"],"resistance":0}]}}"#)
    try client.expectOK(#"{"op":"add_velocity","session":"r","item":"a","velocity":[100,0]}"#)
    client.inbox.removeAll()
    rig.advance(by: .seconds(1))
    let times = client.inbox.compactMap { try? Message($0) }.filter { $0.event == "frame" }
      .compactMap { $0.number("t") }
    #expect(abs(Double(times.count) - fps) <= 1, "\(times.count) frames in a second at \(fps)")
    let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
    let even = gaps.filter { abs($0 - 1 / fps) <= 0.001 }.count
    #expect(Double(even) >= 0.9 * Double(gaps.count), "\(even) of \(gaps.count) gaps are 1/fps")
    rig.expectFinite()
  }

  /// A flick of 8 ms samples (client times), sent as the frames of `hz` pass them: the release's
  /// velocities and the outcome, whatever the rate.
  static func flick(_ transition: String, hz: Double) throws -> (handoff: [String], done: String?) {
    let rig = HostRig()
    let client = rig.connect()
    try client.expectOK(
      #"{"op":"open","session":"f","transition":"\#(transition)","clock":"manual"}"#)
    let get = try client.expectOK(#"{"op":"get","session":"f"}"#).reply
    let first = try #require(get.items.first?["id"] as? String)
    let start = try #require(get.vector("center", of: first))
    var samples: [(t: Double, x: Double, y: Double)] = []
    for i in 0...10 {
      let d = Double(i * i)
      samples.append((t: 0.008 * Double(i), x: start[0] - 2 * d, y: start[1] - 3 * d))
    }
    var handoff: [String] = []
    var done: String?
    var sent = 0
    var frame = 0
    while done == nil, frame < Int(6 * hz) {
      while sent < samples.count, samples[sent].t <= Double(frame) / hz + 1e-9 {
        let s = samples[sent]
        let phase = sent == 0 ? "began" : sent == samples.count - 1 ? "ended" : "changed"
        let reply = try client.expectOK(
          #"{"op":"gesture","session":"f","phase":"\#(phase)","x":\#(s.x),"y":\#(s.y),"t":\#(s.t)}"#
        )
        for event in reply.events("handoff") {
          let finger = event.object["gesture_velocity"].map { "\($0)" } ?? ""
          let item = event.object["item_velocity"].map { "\($0)" } ?? ""
          handoff.append(finger + " " + item)
        }
        sent += 1
      }
      let step = try client.expectOK(#"{"op":"step","session":"f","dt":\#(1 / hz)}"#)
      done = step.events("done").first?.string("outcome") ?? done
      frame += 1
    }
    rig.expectFinite()
    return (handoff, done)
  }

  @Test(
    "the rate changes neither the release's velocities nor the outcome",
    arguments: ["lock-screen", "sheet", "fling", "pip-corners"])
  func rateIndependence(transition: String) throws {
    let reference = try Self.flick(transition, hz: 60)
    #expect(!reference.handoff.isEmpty && reference.done != nil, "\(reference)")
    for hz in Self.rates where hz != 60 {
      let other = try Self.flick(transition, hz: hz)
      #expect(other.handoff == reference.handoff, "\(transition) at \(hz) Hz")
      #expect(other.done == reference.done, "\(transition) at \(hz) Hz")
    }
  }
}
