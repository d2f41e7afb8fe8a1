import Testing

@testable import Transitions

/// The sheet's pure pieces: UIScrollView's rubber band and the choice of a detent.
@Suite("Sheet: rubber band and detents")
struct SheetRubberBandTests {
  /// f(x) = (1 − 1/(x·c/d + 1))·d, c = 0.55, written out here apart from the code.
  static func uiScrollView(_ x: Double, _ d: Double) -> Double { (1 - 1 / (x * 0.55 / d + 1)) * d }

  @Test(arguments: [320.0, 568, 1000])
  func followsUIScrollViewsCurve(_ d: Double) {
    for x in [0.0, 0.5, 10, 100, 200, 568, 2000, 1e6] {
      #expect(abs(RubberBand.offset(x, dimension: d) - Self.uiScrollView(x, d)) <= 1e-9 * d)
      #expect(RubberBand.offset(-x, dimension: d) == -RubberBand.offset(x, dimension: d))
    }
    // Figures worked out by hand: f(100) and f(d) = d·c/(1 + c) on a 568 pt screen.
    if d == 568 {
      #expect(abs(RubberBand.offset(100, dimension: d) - 50.144462) < 1e-6)
      #expect(abs(RubberBand.offset(568, dimension: d) - 201.548387) < 1e-6)
    }
  }

  /// Its limits: it starts at 0 with slope c, only ever grows, and never reaches d.
  @Test func limits() {
    let d = 568.0
    #expect(RubberBand.offset(0, dimension: d) == 0)
    let h = 1e-6
    #expect(abs(RubberBand.offset(h, dimension: d) / h - 0.55) < 1e-6)
    var previous = 0.0
    for x in stride(from: 1.0, through: 1e7, by: 9_999) {
      let shown = RubberBand.offset(x, dimension: d)
      #expect(shown > previous && shown < d)
      previous = shown
    }
    #expect(d - RubberBand.offset(1e9, dimension: d) < 1e-3)
  }

  @Test func clampsOneToOneInsideAndBandsPast() {
    let span = 88.0...548
    for v in [88.0, 100, 284, 548] { #expect(RubberBand.clamp(v, to: span, dimension: 568) == v) }
    #expect(RubberBand.clamp(748, to: span, dimension: 568) == 548 + Self.uiScrollView(200, 568))
    #expect(RubberBand.clamp(-12, to: span, dimension: 568) == 88 - Self.uiScrollView(100, 568))
  }

  @Test func unclampUndoesClamp() {
    let span = 88.0...548
    for v in [-500.0, -12, 50, 88, 300, 548, 600, 900, 3000] {
      let shown = RubberBand.clamp(v, to: span, dimension: 568)
      #expect(
        abs(RubberBand.unclamp(shown, from: span, dimension: 568) - v) < 1e-6 * max(1, abs(v)))
    }
  }

  @Test func theNearestDetentWinsAndATieGoesLow() throws {
    let detents = try #require(
      Detents([
        Detent("large", height: 548), Detent("collapsed", height: 88), Detent("m", height: 284),
      ]))
    #expect(detents.all.map(\.name) == ["collapsed", "m", "large"])
    #expect(detents.span == 88...548)
    #expect(detents.nearest(to: -1000).name == "collapsed")
    #expect(detents.nearest(to: 185.9).name == "collapsed")
    #expect(detents.nearest(to: 186).name == "collapsed")  // the tie between 88 and 284
    #expect(detents.nearest(to: 186.1).name == "m")
    #expect(detents.nearest(to: 416).name == "m")  // the tie between 284 and 548
    #expect(detents.nearest(to: 417).name == "large")
    #expect(detents.nearest(to: 1e9).name == "large")
    #expect(Detents([Detent("a", height: 1), Detent("b", height: 1)]) == nil)
    #expect(Detents([]) == nil)
  }
}
