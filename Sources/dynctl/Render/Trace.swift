import Wire

/// A trace written by `dynctl record`, read back: the header, the items with their sizes, and
/// the frames (everything else stays in `lines` for the HTML player).
struct Trace {
  struct ItemFrame {
    let id: String
    let x: Double
    let y: Double
    let angle: Double
  }

  struct Frame {
    let t: Double
    let items: [ItemFrame]
  }

  let path: String
  /// Every line, parsed, in file order (the header first).
  let lines: [JSONValue]
  let transition: String
  let bounds: (x: Double, y: Double, width: Double, height: Double)
  /// Item ids and sizes, from the `open` reply.
  let sizes: [(id: String, width: Double, height: Double)]
  let frames: [Frame]

  /// Reads and checks a trace file; `.invalidInput` says what is wrong with it.
  init(path: String) throws(Failure) {
    self.path = path
    let text = try readFile(path)
    var parsed: [JSONValue] = []
    let parser = JSONParser()
    for (index, line) in text.split(separator: "\n").enumerated() where !line.isEmpty {
      do {
        parsed.append(try parser.parse(String(line)))
      } catch {
        throw .invalidInput(path: path, reason: "line \(index + 1) is not JSON: \(error.message)")
      }
    }
    guard let header = parsed.first, header["trace"]?.number == 1 else {
      throw .invalidInput(path: path, reason: "not a dynctl trace (no {\"trace\":1} header)")
    }
    lines = parsed
    transition = header["transition"]?.string ?? "?"
    let b = (0..<4).map { header["bounds"]?[$0]?.number ?? 0 }
    bounds = (b[0], b[1], b[2] > 0 ? b[2] : 320, b[3] > 0 ? b[3] : 568)
    var sizes: [(String, Double, Double)] = []
    var frames: [Frame] = []
    let decoder = ServerMessageDecoder()
    for (index, line) in text.split(separator: "\n").filter({ !$0.isEmpty }).enumerated()
    where index > 0 && parsed[index]["sent"] == nil {
      // The daemon's lines; one this dynctl cannot read (a newer daemon's) is only replayed.
      guard let message = try? decoder.decode(String(line)) else { continue }
      switch message.replyBody {
      case .open(_, let items)? where sizes.isEmpty, .get(_, _, let items, _)? where sizes.isEmpty:
        sizes = items.map { ($0.id, $0.size.width, $0.size.height) }
      default:
        break
      }
      if case .event(.frame(let frame)) = message {
        frames.append(
          Frame(
            t: frame.t,
            items: frame.items.map {
              ItemFrame(id: $0.id, x: $0.center.x, y: $0.center.y, angle: $0.angle)
            }))
      }
    }
    guard !sizes.isEmpty else {
      throw .invalidInput(path: path, reason: "the trace has no open reply with item sizes")
    }
    self.sizes = sizes
    self.frames = frames
  }
}
