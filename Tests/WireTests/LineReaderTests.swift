import Primitives
import Testing
import Wire

@Suite("LineReader")
struct LineReaderTests {
  private func lines(_ reader: inout LineReader) -> [LineReader.Line] {
    var result: [LineReader.Line] = []
    while let line = reader.nextLine() { result.append(line) }
    return result
  }

  @Test func splitsLinesAcrossChunks() {
    var reader = LineReader()
    reader.append(Array("{\"op\":".utf8))
    #expect(reader.nextLine() == nil)
    reader.append(Array("\"hello\"}\n{\"op\"".utf8))
    #expect(lines(&reader) == [.line(Array("{\"op\":\"hello\"}".utf8))])
    reader.append(Array(":\"list\"}\n\n".utf8))
    #expect(lines(&reader) == [.line(Array("{\"op\":\"list\"}".utf8)), .line([])])
    #expect(reader.pendingByteCount == 0)
  }

  @Test func keepsCarriageReturn() {
    var reader = LineReader()
    reader.append(Array("a\r\n".utf8))
    #expect(reader.nextLine() == .line(Array("a\r".utf8)))
  }

  @Test func randomChunkingReassemblesTheInput() {
    var generator = SplitMix64(seed: 42)
    var expected: [[UInt8]] = []
    var stream: [UInt8] = []
    for index in 0..<2_000 {
      let line =
        Array("line \(index) ".utf8) + Array(repeating: UInt8(ascii: "x"), count: index % 97)
      expected.append(line)
      stream += line + [UInt8(ascii: "\n")]
    }
    var reader = LineReader(maxLineBytes: 200)
    var received: [[UInt8]] = []
    var offset = 0
    while offset < stream.count {
      let size = Int.random(in: 1...700, using: &generator)
      let end = min(offset + size, stream.count)
      reader.append(Array(stream[offset..<end]))
      offset = end
      while let line = reader.nextLine() {
        guard case .line(let bytes) = line else {
          Issue.record("unexpected \(line)")
          return
        }
        received.append(bytes)
      }
    }
    #expect(received == expected)
  }

  @Test func acceptsALineOfExactlyTheLimit() {
    var reader = LineReader(maxLineBytes: 10)
    reader.append(Array(repeating: UInt8(ascii: "a"), count: 10) + [UInt8(ascii: "\n")])
    #expect(reader.nextLine() == .line(Array(repeating: UInt8(ascii: "a"), count: 10)))
    #expect(!reader.hasFailed)
  }

  @Test func reportsAnOverlongLineOnceAndStops() {
    var reader = LineReader(maxLineBytes: 10)
    reader.append(Array("ok\n".utf8) + Array(repeating: UInt8(ascii: "a"), count: 11) + [10])
    #expect(reader.nextLine() == .line(Array("ok".utf8)))
    #expect(reader.nextLine() == .tooLong)
    #expect(reader.nextLine() == nil)
    reader.append(Array("{\"op\":\"hello\"}\n".utf8))
    #expect(reader.nextLine() == nil)
    #expect(reader.hasFailed)
    #expect(reader.pendingByteCount == 0)
  }

  @Test func reportsAnOverlongLineBeforeItsNewlineArrives() {
    var reader = LineReader(maxLineBytes: 1_000)
    var early = 0
    for _ in 0..<1_000 {
      reader.append([UInt8(ascii: "x")])
      if reader.nextLine() != nil { early += 1 }
    }
    #expect(early == 0)
    reader.append([UInt8(ascii: "x")])
    #expect(reader.nextLine() == .tooLong)
    #expect(reader.pendingByteCount == 0)
  }

  /// Feeding a 1 MiB line one byte at a time, asking for a line after every byte, must examine
  /// each byte once: a reader that rescans from the line start would examine ~5e11 bytes.
  @Test func oneByteChunksOfAOneMebibyteLineCostLinearWork() {
    let length = 1 << 20
    var reader = LineReader(maxLineBytes: length)
    var early = 0
    for _ in 0..<length {
      reader.append([UInt8(ascii: "7")])
      if reader.nextLine() != nil { early += 1 }
    }
    #expect(early == 0)
    reader.append([UInt8(ascii: "\n")])
    guard case .line(let line)? = reader.nextLine() else {
      Issue.record("the line did not come out")
      return
    }
    #expect(line.count == length)
    #expect(reader.scannedByteCount == length + 1)
    #expect(reader.movedByteCount <= length)
  }

  @Test func manyShortLinesInOneByteChunksCostLinearWork() {
    var reader = LineReader()
    let line = Array("{\"op\":\"step\",\"session\":\"s\"}\n".utf8)
    var total = 0
    var count = 0
    for _ in 0..<20_000 {
      for byte in line {
        reader.append([byte])
        total += 1
        while reader.nextLine() != nil { count += 1 }
      }
    }
    #expect(count == 20_000)
    #expect(reader.scannedByteCount == total)
    #expect(reader.movedByteCount <= total)
  }

  @Test("withNextLine lends the lines the copying form returns, and stops the same way")
  func borrowedLines() {
    var generator = SplitMix64(seed: 9)
    var copying = LineReader(maxLineBytes: 64)
    var borrowing = LineReader(maxLineBytes: 64)
    var copied: [LineReader.Line] = []
    var lent: [LineReader.Line] = []
    for index in 0..<3_000 {
      let length = index == 2_500 ? 65 : Int.random(in: 0...40, using: &generator)
      let chunk = Array(repeating: UInt8(ascii: "a") + UInt8(index % 26), count: length) + [10]
      copying.append(chunk)
      borrowing.append(chunk)
      while let line = copying.nextLine() { copied.append(line) }
      while let line = borrowing.withNextLine({ Array($0) }) {
        switch line {
        case .line(let bytes): lent.append(.line(bytes))
        case .tooLong: lent.append(.tooLong)
        }
      }
    }
    #expect(lent == copied)
    #expect(lent.last == .tooLong)
    #expect(borrowing.scannedByteCount == copying.scannedByteCount)
  }

  @Test("a line whose body throws stays in the reader")
  func throwingBodyKeepsTheLine() {
    struct Refused: Error {}
    var reader = LineReader()
    reader.append(Array("one\ntwo\n".utf8))
    #expect(throws: Refused.self) {
      _ = try reader.withNextLine { _ throws(Refused) in throw Refused() }
    }
    #expect(reader.nextLine() == .line(Array("one".utf8)))
    #expect(reader.nextLine() == .line(Array("two".utf8)))
  }
}
