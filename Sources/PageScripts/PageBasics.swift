/// What every dynd page starts with, before its other scripts: the error counter a browser test
/// reads, and the colours both pages give the axes and the marks of their plots.
public enum PageBasics {
  /// `page-basics.js`, embedded at build time.
  public static let source = embeddedScript(PackageResources.page_basics_js)
}
