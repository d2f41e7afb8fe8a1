/// The JavaScript of the player's plots (see `HTMLRenderer`): panels of values over time on
/// common time axis, with ticks and marks. Plain ES2017, no dependencies.
public enum PlotScript {
  /// `plot.js`, embedded at build time.
  public static let source = embeddedScript(PackageResources.plot_js)
}
