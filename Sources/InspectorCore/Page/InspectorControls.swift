import PageScripts

/// The inspector page's forms and recorder: opening a transition with its parameters (from
/// `hello`'s tables), re-opening the watched one with new values, resetting one that reached its
/// end, editing a scene's behaviors with typed fields sent by `set_behavior` and refreshed from
/// dynd's `behaviors` (a spring as one of its five parameter sets, sent whole, with the spring in
/// force in every platform's terms), running a manual clock, and recording what the page shows as a trace that
/// `dynctl render` reads. Plain ES2017; uses `window.dyndInspector`.
enum InspectorControls {
  /// `inspector-controls.js`, embedded at build time.
  static let source = embeddedScript(PackageResources.inspector_controls_js)
}
