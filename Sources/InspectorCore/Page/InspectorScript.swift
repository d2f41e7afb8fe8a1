import PageScripts

/// The inspector page's core script: its connections to dynd (through the inspector's
/// WebSocket; when dynd goes away, one "dynd is gone — reconnecting" state until it returns,
/// then the list and the watched session resume), the live session list, the watched session's
/// stage and plot (the finger's velocity as dynd's estimator sees it beside the item's, the
/// handoff marked), the handoff explained, and the pointer turned into gestures and taps. Plain
/// ES2017, no dependencies but the stage and plot drawers, the finger's estimator and the
/// handoff's words.
enum InspectorScript {
  /// `inspector.js`, embedded at build time.
  static let source = embeddedScript(PackageResources.inspector_js)
}
