import Wire

/// The input syntax both fuzz drivers read (this module's `HostFuzzDriver` over the host, and the
/// daemon tests' `LineHarness` over socket pairs): `@N ` prefixes and the four action words.
public enum FuzzInput {
  /// A word that stands for a client's action instead of a line.
  public enum Action: String, Sendable {
    case close, reset, stall, read
  }

  /// The connection a line of an input is for (`@N ` prefix, N in 0…3; else 0) and the line
  /// without its prefix.
  public static func address(_ segment: ArraySlice<UInt8>) -> (index: Int, line: ArraySlice<UInt8>)
  {
    let start = segment.startIndex
    guard segment.count >= 2, segment[start] == UInt8(ascii: "@"),
      (UInt8(ascii: "0")...UInt8(ascii: "3")).contains(segment[start + 1]),
      segment.count == 2 || segment[start + 2] == UInt8(ascii: " ")
    else { return (0, segment) }
    let index = Int(segment[start + 1] - UInt8(ascii: "0"))
    return (index, segment.dropFirst(min(3, segment.count)))
  }

  /// The action `line` (without its prefix) names, if it is one of the four words.
  public static func action(_ line: [UInt8]) -> Action? {
    line.count <= 5 ? Action(rawValue: String(decoding: line, as: UTF8.self)) : nil
  }
}

/// The step work of one input's requests, counted against a budget so that no input runs for
/// long: frames, frames × items (a session's items over-estimated from the input: its scene,
/// then every `add_item`), and simulated seconds.
public struct StepBudget: Sendable {
  let maxFrames: Int
  let maxItemFrames: Int
  let maxSeconds: Double
  private var frames = 0
  private var itemFrames = 0
  private var seconds = 0.0
  private var fps: [String: Double] = [:]
  private var items: [String: Int] = [:]
  /// Any session of the run was opened by this input: none has more items than this.
  private var mostItems = 0
  private var addedItems = 0

  public init(maxFrames: Int, maxItemFrames: Int, maxSeconds: Double) {
    self.maxFrames = maxFrames
    self.maxItemFrames = maxItemFrames
    self.maxSeconds = maxSeconds
  }

  /// Notes what `request` opens or adds; false for a `step` beyond the budget, which is not to
  /// be sent.
  public mutating func admit(_ request: Request) -> Bool {
    switch request.op.request {
    case let open as OpenRequest:
      let count: Int
      switch open.source {
      case .scene(let scene): count = scene.items.count
      case .transition: count = 80  // wave-pop's most: two lists of 40 rows
      }
      mostItems = max(mostItems, count)
      if let name = open.session {
        fps[name] = open.fps
        items[name] = count
      }
    case let add as AddItemRequest:
      addedItems += 1
      items[add.session, default: 0] += 1
    case let step as StepRequest:
      let span = step.span(fps: fps[step.session] ?? Limits.fps.lowerBound)
      let cost = step.count * max(1, min(items[step.session] ?? .max, mostItems + addedItems))
      guard frames + step.count <= maxFrames, itemFrames + cost <= maxItemFrames,
        seconds + span <= maxSeconds
      else { return false }
      frames += step.count
      itemFrames += cost
      seconds += span
    default:
      break
    }
    return true
  }
}
