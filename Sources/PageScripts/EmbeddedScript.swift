/// The text of a page script that a target embeds at build time (`resources:
/// [.embedInCode("name.js")]`, read as `PackageResources.name_js`): the file without its last
/// newline, as a page puts it between `<script>` and `</script>`.
public func embeddedScript(_ bytes: [UInt8]) -> String {
  let text = String(decoding: bytes, as: UTF8.self)
  return text.hasSuffix("\n") ? String(text.dropLast()) : text
}
