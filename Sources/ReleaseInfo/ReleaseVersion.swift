/// The release's version, from the file `VERSION` at the top of the checkout (embedded at build
/// time): the one place the number is written. `dynd --version`, `dynctl --version`,
/// `dynd-inspect --version`, dynd's `hello` reply, the Debian package and the Python wheel all
/// read it.
public let releaseVersion: String = String(
  decoding: PackageResources.VERSION, as: UTF8.self
).filter { !$0.isWhitespace }
