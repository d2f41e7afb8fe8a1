import PageScripts

/// The JavaScript that reads a trace's lines into what the player shows (see `HTMLRenderer`):
/// `dyndTraceModel(lines)`. Plain ES2017; it reads what `Trace` reads in Swift.
enum TraceModelScript {
  /// `trace-model.js`, embedded at build time.
  static let source = embeddedScript(PackageResources.trace_model_js)
}
