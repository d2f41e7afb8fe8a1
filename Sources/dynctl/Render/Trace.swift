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

  /// Reads and checks a trace file; `.unreadableFile` says what is wrong with it.
  init(path: String) throws(Failure) {
    self.path = path
    let text = try readFile(path)
    var parsed: [JSONValue] = []
    let parser = JSONParser()
    for (index, line) in text.split(separator: "\n").enumerated() where !line.isEmpty {
      do {
        parsed.append(try parser.parse(String(line)))
      } catch {
        throw .unreadableFile(path: path, reason: "line \(index + 1) is not JSON: \(error.message)")
      }
    }
    guard let header = parsed.first, header["trace"]?.number == 1 else {
      throw .unreadableFile(path: path, reason: "not a dynctl trace (no {\"trace\":1} header)")
    }
    lines = parsed
    transition = header["transition"]?.string ?? "?"
    let b = (0..<4).map { header["bounds"]?[$0]?.number ?? 0 }
    bounds = (b[0], b[1], b[2] > 0 ? b[2] : 320, b[3] > 0 ? b[3] : 568)
    var sizes: [(String, Double, Double)] = []
    var frames: [Frame] = []
    for line in parsed {
      if sizes.isEmpty, line["ok"]?.bool == true, let items = line["items"]?.arrayValue {
        sizes = items.compactMap { item in
          guard let id = item["id"]?.string, let w = item["size"]?[0]?.number,
            let h = item["size"]?[1]?.number
          else { return nil }
          return (id, w, h)
        }
      }
      if line["ev"]?.string == "frame", let t = line["t"]?.number,
        let items = line["items"]?.arrayValue
      {
        frames.append(
          Frame(
            t: t,
            items: items.compactMap { item in
              guard let id = item["id"]?.string, let x = item["center"]?[0]?.number,
                let y = item["center"]?[1]?.number
              else { return nil }
              return ItemFrame(id: id, x: x, y: y, angle: item["angle"]?.number ?? 0)
            }))
      }
    }
    guard !sizes.isEmpty else {
      throw .unreadableFile(path: path, reason: "the trace has no open reply with item sizes")
    }
    self.sizes = sizes
    self.frames = frames
  }
}
