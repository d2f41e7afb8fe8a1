import Foundation
import Primitives
import Testing
import TransitionDocuments
import Transitions

/// A document's pan grips as it says: a drag scale moves the item by a part of the finger's
/// travel (MotionLayout's `dragScale`), a spring grip lets it trail the finger (the snake's
/// grip), and the release hands over the finger's velocity as the rigid grip's does.
@Suite("Transition documents: the grip")
struct DocumentGripTests {
  static func transition(pan: String) throws -> DocumentTransition {
    let text = """
      {"transition": "t", "parameters": [{"name": "scale", "default": 0.5, "min": 0.1, "max": 2}],
       "scene": {"items": [{"id": "card", "center": ["=mid_x", "=mid_y"], "size": [100, 100]}],
                 "behaviors": [{"type": "dynamic_item", "id": "m", "items": ["card"], "allows_rotation": false}]},
       "pan": \(pan)}
      """
    let document = try TransitionDocument.read(text: Array(text.utf8))
    let bounds = TransitionBounds.standard
    let values = try ParameterValues([:], declared: document.parameters, in: bounds.size)
    return try DocumentTransition(
      document, scene: document.scene(values, in: bounds), values: values, bounds: bounds)
  }

  /// Drags the card from its center by `by` over 30 frames at 60 Hz; returns where it is.
  static func drag(_ t: Transition, by: Vector, frames: Int = 30) -> Point {
    let start = t.items[0].center
    _ = t.handle(GestureSample(phase: .began, point: start, time: 0), now: 0)
    for i in 1...frames {
      t.animator.step(1.0 / 60)
      let p = start + by * (Double(i) / Double(frames))
      _ = t.handle(GestureSample(phase: .changed, point: p, time: Double(i) / 60), now: 0)
    }
    t.animator.step(1.0 / 60)
    return t.items[0].center
  }

  @Test("a drag scale of 0.5 moves the card by half the finger's travel, along its axis")
  func dragScale() throws {
    let t = try Self.transition(pan: #"{"items": ["card"], "axis": "x", "drag_scale": "=scale"}"#)
    let start = t.items[0].center
    let end = Self.drag(t, by: Vector(dx: 100, dy: 40))
    #expect(abs(end.x - (start.x + 50)) < 0.01, "half of 100 pt: \(end)")
    #expect(abs(end.y - start.y) < 0.01, "locked to x")
  }

  @Test("a spring grip trails the finger, then comes under it")
  func springGrip() throws {
    let t = try Self.transition(
      pan: #"{"items": ["card"], "spring": {"frequency": 2, "damping": 0.7}}"#)
    let start = t.items[0].center
    let end = Self.drag(t, by: Vector(dx: 100, dy: 0), frames: 6)
    #expect(end.x < start.x + 90, "it lags the finger 0.1 s after a fast drag: \(end)")
    for _ in 0..<180 { t.animator.step(1.0 / 60) }
    #expect(abs(t.items[0].center.x - (start.x + 100)) < 1, "then hangs under the finger")
    let rigid = try Self.transition(pan: #"{"items": ["card"]}"#)
    let under = Self.drag(rigid, by: Vector(dx: 100, dy: 0), frames: 6)
    #expect(abs(under.x - (start.x + 100)) < 0.01, "the rigid grip keeps it under the finger")
  }

  @Test("spring grips and drag scales out of range are refused, with their pointers")
  func refused() throws {
    for (pan, pointer) in [
      (#"{"drag_scale": 0}"#, "/pan/drag_scale"),
      (#"{"spring": {"frequency": 0, "damping": 1}}"#, "/pan/spring/frequency"),
      (#"{"spring": {"frequency": 1}}"#, "/pan/spring"),
    ] {
      #expect(throws: DocumentErrors.self) { try Self.transition(pan: pan) }
      do {
        _ = try Self.transition(pan: pan)
      } catch let errors as DocumentErrors {
        #expect(errors.errors.map(\.pointer).contains(pointer), "\(pan): \(errors)")
      }
    }
  }
}
