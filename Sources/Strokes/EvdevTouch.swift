/// One kernel input event (`struct input_event`), as a recording gives it, with its line.
struct EvdevEvent {
  var t: Double
  var type: Int
  var code: Int
  var value: Int
  var line: Int
}

/// The event types and codes the touch readers use (linux/input-event-codes.h).
enum EvdevCode {
  static let synType = 0, keyType = 1, absType = 3
  static let synReport = 0, synMTReport = 2
  static let btnTouch = 330
  static let absX = 0, absY = 1
  static let mtSlot = 47, mtPositionX = 53, mtPositionY = 54, mtTrackingID = 57
}

/// The first finger's stroke in an evdev event stream, in device units, a sample per
/// `SYN_REPORT` frame that moved it: the frame where it touched, each frame that reported a new
/// position for it, and the frame where it lifted (at its last position).
///
/// A multi-touch device (any `ABS_MT_POSITION_X` event: the slot protocol, type B of the
/// kernel's multi-touch-protocol.rst) is followed by slots: the first finger is the first
/// `ABS_MT_TRACKING_ID` ≥ 0, in its slot, until that slot's tracking id is −1. Otherwise the
/// finger is `BTN_TOUCH` (1 down, 0 up) at `ABS_X`, `ABS_Y`. Type A multi-touch
/// (`SYN_MT_REPORT`) is refused.
struct EvdevTouch {
  struct RawSample {
    var t: Double
    var x: Int
    var y: Int
  }

  /// The finger's samples, and whether they are the multi-touch axes.
  let samples: [RawSample]
  let multiTouch: Bool

  init(_ events: [EvdevEvent], lastLine: Int) throws(StrokeReadError) {
    multiTouch = events.contains {
      $0.type == EvdevCode.absType && $0.code == EvdevCode.mtPositionX
    }
    if let typeA = events.first(where: {
      $0.type == EvdevCode.synType && $0.code == EvdevCode.synMTReport
    }) {
      throw StrokeReadError(
        line: typeA.line,
        "expected the multi-touch slot protocol (type B): SYN_MT_REPORT (type A) is not read")
    }
    var tracker = Tracker(multiTouch: multiTouch)
    for event in events {
      if try tracker.take(event) { break }
    }
    guard tracker.down else {
      throw StrokeReadError(
        line: lastLine,
        "expected a touch ("
          + (multiTouch ? "ABS_MT_TRACKING_ID ≥ 0" : "BTN_TOUCH 1 with ABS_X and ABS_Y")
          + " and a SYN_REPORT), found none")
    }
    samples = tracker.samples
  }

  /// The state between frames.
  private struct Tracker {
    let multiTouch: Bool
    var slot = 0
    /// Per slot (the single-touch finger is slot 0): tracking id, x, y.
    var ids: [Int: Int] = [:]
    var xs: [Int: Int] = [:]
    var ys: [Int: Int] = [:]
    /// The followed finger's slot, once it touched.
    var followed: Int?
    var down: Bool { followed != nil }
    /// What this frame did to the finger.
    var touched: (slot: Int, line: Int)?
    var lifted = false
    var moved = false
    var samples: [RawSample] = []

    init(multiTouch: Bool) { self.multiTouch = multiTouch }

    /// Takes one event; true once the followed finger lifted.
    mutating func take(_ e: EvdevEvent) throws(StrokeReadError) -> Bool {
      switch (e.type, e.code) {
      case (EvdevCode.synType, EvdevCode.synReport):
        return try endFrame(e)
      case (EvdevCode.absType, EvdevCode.mtSlot) where multiTouch:
        slot = e.value
      case (EvdevCode.absType, EvdevCode.mtTrackingID) where multiTouch:
        ids[slot] = e.value
        if e.value >= 0, followed == nil, touched == nil { touched = (slot, e.line) }
        if e.value < 0, slot == followed { lifted = true }
      case (EvdevCode.keyType, EvdevCode.btnTouch) where !multiTouch:
        if e.value == 1, followed == nil { touched = (0, e.line) }
        if e.value == 0, followed != nil { lifted = true }
      case (EvdevCode.absType, EvdevCode.mtPositionX) where multiTouch,
        (EvdevCode.absType, EvdevCode.absX) where !multiTouch:
        xs[multiTouch ? slot : 0] = e.value
        moved = moved || (multiTouch ? slot : 0) == followed
      case (EvdevCode.absType, EvdevCode.mtPositionY) where multiTouch,
        (EvdevCode.absType, EvdevCode.absY) where !multiTouch:
        ys[multiTouch ? slot : 0] = e.value
        moved = moved || (multiTouch ? slot : 0) == followed
      default:
        break
      }
      return false
    }

    private mutating func endFrame(_ e: EvdevEvent) throws(StrokeReadError) -> Bool {
      defer {
        touched = nil
        moved = false
      }
      if let followed {
        guard let last = samples.last else { return false }
        if lifted {
          samples.append(RawSample(t: e.t, x: last.x, y: last.y))
          return true
        }
        if moved, let x = xs[followed], let y = ys[followed] {
          samples.append(RawSample(t: e.t, x: x, y: y))
        }
      } else if let touched {
        guard let x = xs[touched.slot], let y = ys[touched.slot] else {
          throw StrokeReadError(
            line: touched.line,
            "expected the touch's position (ABS_\(multiTouch ? "MT_POSITION_" : "")X and "
              + "ABS_\(multiTouch ? "MT_POSITION_" : "")Y) by its SYN_REPORT, found none")
        }
        followed = touched.slot
        samples.append(RawSample(t: e.t, x: x, y: y))
      }
      return false
    }
  }
}
