import PageScripts

/// The JavaScript of the HTML player (see `HTMLRenderer`): plain ES2017, no dependencies. It
/// reads the traces with `dyndTraceModel` (TraceModelScript), draws the stage with
/// `makeDyndStage` (StageScript), the plots with `makeDyndPlot` (PlotScript) and the header
/// with `dyndSummary` (SummaryScript).
enum PlayerScript {
  /// `player.js`, embedded at build time.
  static let source = embeddedScript(PackageResources.player_js)
}
