import Glibc
import JSON
import Primitives
import Testing
import Wire

/// Hand-run timings of the codec; skipped unless `WIRE_BENCH` is set:
///
///     WIRE_BENCH=1 swift test -c release --filter WireBenchmarks
///
/// Each one checks what it timed: every encoded frame is a JSON line with its items, every timed
/// line decodes (or is rejected) as it must, the reader splits out every line; and, with the
/// allocation counter preloaded, encoding a frame allocates nothing once the buffer has grown.
///
/// Each figure is the minimum over several runs of the mean per operation, as Box2D's benchmark
/// reports. `WIRE_BENCH_FRAMES` sets the frames per run. When the process has a `malloc_count()`
/// function (an `LD_PRELOAD` shim that counts allocations), heap allocations per operation are
/// printed too. The shim used for the numbers in the Wire report, built with
/// `gcc -O2 -shared -fPIC malloccount.c -o libmalloccount.so`:
///
///     #include <stddef.h>
///     #include <stdint.h>
///     extern void *__libc_malloc(size_t), *__libc_calloc(size_t, size_t);
///     extern void *__libc_realloc(void *, size_t), *__libc_memalign(size_t, size_t);
///     static _Atomic uint64_t count;
///     uint64_t malloc_count(void) { return count; }
///     void *malloc(size_t n) { count++; return __libc_malloc(n); }
///     void *calloc(size_t a, size_t b) { count++; return __libc_calloc(a, b); }
///     void *realloc(void *p, size_t n) { count++; return __libc_realloc(p, n); }
///     void *memalign(size_t a, size_t n) { count++; return __libc_memalign(a, n); }
///     void *aligned_alloc(size_t a, size_t n) { count++; return __libc_memalign(a, n); }
///     int posix_memalign(void **r, size_t a, size_t n) {
///       count++; *r = __libc_memalign(a, n); return *r ? 0 : 12;
///     }
///
/// and run as `LD_PRELOAD=$PWD/libmalloccount.so WIRE_BENCH=1 <the test binary>
/// --testing-library swift-testing --filter WireBenchmarks`.
@Suite("Wire benchmarks", .enabled(if: getenv("WIRE_BENCH") != nil), .serialized)
struct WireBenchmarks {
  private static let frames =
    getenv("WIRE_BENCH_FRAMES").flatMap { Int(String(cString: $0)) }
    ?? 20_000

  private func microseconds(runs: Int = 7, iterations: Int, _ body: () -> Void) -> Double {
    var best = Double.infinity
    let clock = ContinuousClock()
    for _ in 0..<runs {
      let elapsed = clock.measure { for _ in 0..<iterations { body() } }
      let seconds =
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
      best = min(best, seconds * 1e6 / Double(iterations))
    }
    return best
  }

  /// Heap allocations per call of `body`, if an allocation counter is preloaded.
  private func allocations(iterations: Int = 1_000, _ body: () -> Void) -> Double? {
    guard let symbol = dlsym(nil, "malloc_count") else { return nil }
    let count = unsafeBitCast(symbol, to: (@convention(c) () -> UInt64).self)
    body()
    let before = count()
    for _ in 0..<iterations { body() }
    return Double(count() - before) / Double(iterations)
  }

  private func describe(_ allocations: Double?) -> String {
    allocations.map { ", \($0) allocations" } ?? ""
  }

  private func items(_ count: Int) -> [ItemState] {
    (0..<count).map { index in
      ItemState(
        id: "item-\(index)", center: Point(x: 160.123 + Double(index), y: 284.5678),
        angle: 0.123456789, velocity: Vector(dx: -1234.5678, dy: 98.7654),
        angularVelocity: -3.14159265, size: Size(width: 40, height: 40))
    }
  }

  @Test func encodeFrames() throws {
    var encoder = MessageEncoder()
    for count in [8, 32, 128] {
      let states = items(count)
      var seq: UInt64 = 0
      encoder.removeAll()
      encoder.frame(session: "bench", seq: 0, t: 0, items: states)
      let bytes = encoder.bytes.count
      let encode = {
        seq += 1
        encoder.removeAll()
        encoder.frame(session: "bench", seq: seq, t: Double(seq) / 60, items: states)
      }
      let cost = microseconds(iterations: Self.frames / count * 8, encode)
      let perFrame = allocations(encode)
      print("encode frame, \(count) items (\(bytes) bytes): \(cost) µs\(describe(perFrame))")
      #expect(perFrame == nil || perFrame == 0, "a grown encoder allocates nothing per frame")
      let line = text(encoder)
      #expect(line.hasSuffix("\n") && line.filter { $0 == "\n" }.count == 1)
      let frame = try JSONParser().parse(Array(line.utf8.dropLast()))
      guard case .array(let listed)? = frame["items"] else {
        Issue.record("a frame without items: \(line.prefix(80))")
        continue
      }
      #expect(listed.count == count)
    }
  }

  @Test func decodeRequests() {
    let decoder = RequestDecoder()
    let gesture = Array(
      #"{"op":"gesture","id":17,"session":"lock","phase":"changed","x":160.5,"y":302.25,"t":12.016}"#
        .utf8)
    let decodeGesture = { _ = try? decoder.decode(gesture) }
    #expect(throws: Never.self) { try decoder.decode(gesture) }
    let gestureCost = microseconds(iterations: 20_000, decodeGesture)
    print(
      "decode gesture line (\(gesture.count) bytes): \(gestureCost) µs"
        + describe(allocations(decodeGesture)))

    let itemsJSON = (0..<32).map { index in
      #"{"id":"i\#(index)","center":[\#(index * 10),100],"size":[8,8]}"#
    }
    let scene = Array(
      (#"{"op":"open","clock":"manual","scene":{"bounds":[320,568],"items":["#
        + itemsJSON.joined(separator: ",")
        + #"],"behaviors":[{"type":"gravity","items":["i0","i1","i2"]},"#
        + #"{"type":"collision","items":["i0","i1"],"reference_bounds":true}]}}"#).utf8)
    #expect(throws: Never.self) { try decoder.decode(scene) }
    let sceneCost = microseconds(iterations: 2_000) { _ = try? decoder.decode(scene) }
    print("decode open with a 32-item scene (\(scene.count) bytes): \(sceneCost) µs")

    let bad = Array(#"{"op":"tap","session":"s","x":"1","y":2}"#.utf8)
    #expect(rejection(bad)?.code == .wrongType)
    let badCost = microseconds(iterations: 20_000) { _ = try? decoder.decode(bad) }
    print("decode and reject a wrong_type line: \(badCost) µs")
  }

  @Test func splitLines() {
    var stream: [UInt8] = []
    for _ in 0..<10_000 {
      stream += Array(#"{"op":"gesture","session":"s","phase":"changed","x":1,"y":2}"#.utf8) + [10]
    }
    var lines = 0
    let cost = microseconds(iterations: 1) {
      var reader = LineReader()
      var offset = 0
      lines = 0
      while offset < stream.count {
        let end = min(offset + 4096, stream.count)
        stream[offset..<end].withUnsafeBytes { reader.append($0) }
        offset = end
        while reader.nextLine() != nil { lines += 1 }
      }
    }
    #expect(lines == 10_000)
    print(
      "split \(stream.count) bytes in 4 KiB chunks: \(cost) µs (\(cost * 1e3 / Double(stream.count)) ns/byte)"
    )
  }
}
