import Strokes
import Testing

/// The readers' rules the shared files do not show one by one: formats by extension, the
/// summary, and the errors of each reader, each naming its line.
@Suite("Strokes: readers")
struct StrokeReaderTests {
  @Test("the format is the extension's; others name none")
  func formats() {
    #expect(StrokeFormat(path: "a/b.CSV") == .csv)
    #expect(StrokeFormat(path: "x.ndjson") == .jsonl)
    #expect(StrokeFormat(path: "x.jsonl") == .jsonl)
    #expect(StrokeFormat(path: "rec.yml") == .libinput)
    #expect(StrokeFormat(path: "rec.yaml") == .libinput)
    #expect(StrokeFormat(path: "log.getevent") == .getevent)
    #expect(StrokeFormat(path: "log.txt") == nil)
    #expect(StrokeFormat(path: "dir.d/file") == nil)
  }

  @Test("duration and span come from the samples")
  func summary() throws {
    let stroke = try StrokeReader.read("t,x,y\n1,10,20\n1.5,40,0\n1.25,5,30\n", format: .csv)
    #expect(stroke.duration == 0.25)
    #expect(stroke.span == .init(x: 5, y: 0, width: 35, height: 30))
    #expect(stroke.backwardTimes == 1)
  }

  @Test("a trace's gesture is its first pan, from began to ended")
  func trace() throws {
    let text = """
      {"trace":1,"source":"transition","transition":"toss","session":"s","bounds":[0,0,320,568]}
      {"sent":{"op":"tap","id":3,"session":"s","x":1,"y":2}}
      {"sent":{"op":"gesture","id":4,"session":"s","phase":"changed","x":9,"y":9,"t":0}}
      {"sent":{"op":"gesture","id":5,"session":"s","phase":"began","x":1,"y":2,"t":0.5}}
      {"ok":true,"id":5}
      {"sent":{"op":"step","id":6,"session":"s","dt":0.01}}
      {"sent":{"op":"gesture","id":7,"session":"s","phase":"changed","x":3,"y":4,"t":0.51}}
      {"sent":{"op":"gesture","id":8,"session":"s","phase":"ended","x":5,"y":6,"t":0.52}}
      {"sent":{"op":"gesture","id":9,"session":"s","phase":"began","x":7,"y":8,"t":1}}
      """
    let stroke = try StrokeReader.read(text, format: .jsonl)
    #expect(stroke.samples.map(\.t) == [0.5, 0.51, 0.52])
    #expect(stroke.samples.map(\.point.x) == [1, 3, 5])
  }

  func failure(_ text: String, _ format: StrokeFormat, _ units: StrokeUnits = StrokeUnits())
    -> StrokeReadError?
  {
    do {
      _ = try StrokeReader.read(text, format: format, units: units)
      return nil
    } catch { return error }
  }

  static let events = """
    - [ 0, 0, 3, 0, 10]
    - [ 0, 0, 1, 330, 1]
    """

  @Test("libinput: a touch without a position, no touch, no absinfo, type A")
  func libinputErrors() {
    let head =
      "version: 1\ndevices:\n- node: /dev/input/event1\n  evdev:\n    absinfo:\n"
      + "      0: [0, 100, 0, 0, 1]\n      1: [0, 100, 0, 0, 1]\n  events:\n  - evdev:\n"
    let noY = failure(
      head + "    - [0, 0, 1, 330, 1]\n    - [0, 0, 3, 0, 5]\n    - [0, 0, 0, 0, 0]\n", .libinput)
    #expect(noY?.line == 10)
    #expect(noY?.message.contains("expected the touch's position") == true)
    let none = failure(head + "    - [0, 0, 3, 0, 5]\n    - [0, 0, 0, 0, 0]\n", .libinput)
    #expect(none?.line == 11)
    #expect(none?.message.contains("expected a touch") == true)
    let typeA = failure(head + "    - [0, 0, 3, 53, 5]\n    - [0, 0, 0, 2, 0]\n", .libinput)
    #expect(typeA?.line == 11)
    #expect(typeA?.message.contains("SYN_MT_REPORT") == true)
    let touch =
      "    - [0, 0, 1, 330, 1]\n    - [0, 0, 3, 0, 5]\n    - [0, 0, 3, 1, 5]\n"
      + "    - [0, 0, 0, 0, 0]\n    - [0, 9, 1, 330, 0]\n    - [0, 9, 0, 0, 0]\n"
    let noAxis = failure(
      head.replacingOccurrences(of: "      1: [0, 100, 0, 0, 1]\n", with: "") + touch, .libinput)
    #expect(noAxis?.line == 14)
    #expect(noAxis?.message.contains("expected the absinfo of ABS_Y") == true)
    #expect(failure("devices:\n", .libinput)?.message.contains("version: 1") == true)
    #expect(failure("version: 1\n", .libinput)?.message.contains("expected a device") == true)
    #expect(failure(head + "  absinfo:\n", .libinput) != nil)
  }

  @Test("getevent: no screen, a bad value, a bad time")
  func geteventErrors() {
    let info =
      "add device 1: /dev/input/event1\n  events:\n"
      + "    ABS (0003): ABS_X : value 0, min 0, max 99, fuzz 0, flat 0, resolution 0\n"
      + "                ABS_Y : value 0, min 0, max 99, fuzz 0, flat 0, resolution 0\n"
    let events =
      "[ 1.000000] EV_KEY BTN_TOUCH DOWN\n[ 1.000000] EV_ABS ABS_X 00000001\n"
      + "[ 1.000000] EV_ABS ABS_Y 00000002\n[ 1.000000] EV_SYN SYN_REPORT 00000000\n"
      + "[ 1.010000] EV_KEY BTN_TOUCH UP\n[ 1.010000] EV_SYN SYN_REPORT 00000000\n"
    let noScreen = failure(info + events, .getevent)
    #expect(noScreen?.line == 10)
    #expect(noScreen?.message.contains("--screen-size") == true)
    let screen = StrokeUnits(screen: MappedScreen(width: 100, height: 100, density: 160))
    let read = try? StrokeReader.read(info + events, format: .getevent, units: screen)
    #expect(read?.samples.map(\.point) == [.init(x: 1, y: 2), .init(x: 1, y: 2)])
    let value = failure(info + "[ 1.0] EV_ABS ABS_X 1x\n", .getevent, screen)
    #expect(value?.line == 5)
    #expect(value?.message.contains("expected a hexadecimal value") == true)
    let time = failure("[ 1.0x] EV_ABS ABS_X 00000001\n", .getevent, screen)
    #expect(time?.line == 1)
    #expect(time?.message.contains("expected a finite number for the time") == true)
    let axis = failure(
      info.replacingOccurrences(of: "max 99,", with: "max 0,") + events, .getevent, screen)
    #expect(axis?.line == 3)
    let apart = failure(
      events, .getevent, StrokeUnits(screen: screen.screen, deviceInfo: "nonsense"))
    #expect(apart?.line == 1)
    #expect(apart?.message.contains("in the device info") == true)
  }
}
