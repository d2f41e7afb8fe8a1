/// JSON text made safe to place inside a `<script>` element of an HTML page, whatever its
/// strings hold: `<`, `>`, `&`, U+2028 and U+2029 are written as `\u003c`, `\u003e`, `\u0026`,
/// `\u2028` and `\u2029`. The HTML parser then sees no `</script>` that ends the element early,
/// no `<!--` that puts it in its script-escape mode (where a later `</script>` no longer ends
/// the element and the page's other scripts are swallowed), and no character reference; and
/// the text stays valid JavaScript too. Outside strings JSON holds none of these characters,
/// so the result parses back to the same value. What Go's `html/template` and Rails'
/// `json_escape` do.
public func scriptSafeJSON(_ json: String) -> String {
  var safe = String.UnicodeScalarView()
  safe.reserveCapacity(json.utf8.count)
  for scalar in json.unicodeScalars {
    switch scalar {
    case "<": safe.append(contentsOf: #"\u003c"#.unicodeScalars)
    case ">": safe.append(contentsOf: #"\u003e"#.unicodeScalars)
    case "&": safe.append(contentsOf: #"\u0026"#.unicodeScalars)
    case "\u{2028}": safe.append(contentsOf: #"\u2028"#.unicodeScalars)
    case "\u{2029}": safe.append(contentsOf: #"\u2029"#.unicodeScalars)
    default: safe.append(scalar)
    }
  }
  return String(safe)
}
