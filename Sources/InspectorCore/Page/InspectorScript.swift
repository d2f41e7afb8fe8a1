import PageScripts

/// The inspector page's core script: its connections to dynd (through the inspector's
/// WebSocket; when dynd goes away, one "dynd is gone — reconnecting" state until it returns,
/// then the list and the watched session resume), the live session list, the watched session's
/// stage and plot (the finger's velocity as dynd's estimator sees it beside the item's, the
/// handoff marked; the item's position, with the closed form of the release's spring or decay
/// behind it), the handoff explained and where the release lands (a sheet's detents, the
/// projection and the landing on the stage; the motion's constants and the spring's platform
/// lines beside the handoff), and the pointer turned into gestures and taps. Plain ES2017, no
/// dependencies but the stage and plot drawers, the finger's estimator, the handoff's words and
/// `dyndMotion`.
enum InspectorScript {
  /// `inspector.js`, embedded at build time.
  static let source = embeddedScript(PackageResources.inspector_js)
}
