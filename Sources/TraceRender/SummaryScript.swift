import PageScripts

/// The JavaScript of each player's header (see `HTMLRenderer`): what was recorded and what came
/// of it — the outcome, the handoff numbers and their explanation (`HandoffWords`), the
/// parameters, the gesture. Plain ES2017.
enum SummaryScript {
  /// `summary.js`, embedded at build time.
  static let source = embeddedScript(PackageResources.summary_js)
}
