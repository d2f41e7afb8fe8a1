/// The stage drawer: one frame of a dynd session on a `<canvas>`, with its legend. Plain ES2017,
/// no dependencies and no globals but `makeDyndStage`, so that any page can include `source`
/// verbatim (the HTML player does; a live inspector can feed it frames from a socket).
public enum StageScript {
  /// `stage.js`, embedded at build time.
  public static let source = embeddedScript(PackageResources.stage_js)
}
