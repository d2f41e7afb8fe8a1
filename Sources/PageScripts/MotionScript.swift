/// Springs and decays as dynd computes them (`Primitives`' `Motion/`), in JavaScript for both
/// pages: a spring's five parameter sets and its constants in every platform's terms
/// (`dyndMotion.platformLines`), the spring's and the decay's closed forms (the plots' curves
/// behind the frames). The browser tests check them against what dynd reports.
public enum MotionScript {
  /// `motion.js`, embedded at build time.
  public static let source = embeddedScript(PackageResources.motion_js)
}
