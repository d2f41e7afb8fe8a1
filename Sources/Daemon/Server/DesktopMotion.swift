import Glibc
import TransitionDocuments

/// The desktop's reduced-motion setting, where one is readable without a desktop session:
/// GTK's `gtk-enable-animations` in the user's `settings.ini` (GTK 4's, then GTK 3's, under
/// `$XDG_CONFIG_HOME`, by default `~/.config`), the setting libadwaita's animations follow. A
/// line `gtk-enable-animations=false` (or `0`, `no`) in its `[Settings]` group turns reduced
/// motion on for sessions that do not say otherwise (`open`'s `reduce_motion`).
public enum DesktopMotion {
  /// Whether the desktop asks for reduced motion, and the file that says so; nil when no file
  /// says anything.
  public static func reduced() -> (reduce: Bool, source: String)? {
    let variable = { (name: String) -> String? in
      getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }
    guard let config = variable("XDG_CONFIG_HOME") ?? variable("HOME").map({ $0 + "/.config" })
    else { return nil }
    for version in ["gtk-4.0", "gtk-3.0"] {
      let path = "\(config)/\(version)/settings.ini"
      guard let bytes = DocumentDirectories.readFile(path, limit: 1 << 16),
        let enabled = animationsEnabled(in: String(decoding: bytes, as: UTF8.self))
      else { continue }
      return (!enabled, path)
    }
    return nil
  }

  /// The value of `gtk-enable-animations` in an ini text's `[Settings]` group, if it has one.
  public static func animationsEnabled(in text: String) -> Bool? {
    func trimmed(_ s: Substring) -> String {
      String(
        s.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }
          .reversed())
    }
    var inSettings = false
    for raw in text.split(whereSeparator: \.isNewline) {
      let line = trimmed(raw)
      if line.hasPrefix("[") {
        inSettings = line == "[Settings]"
        continue
      }
      guard inSettings, let equals = line.firstIndex(of: "="),
        trimmed(line[..<equals]) == "gtk-enable-animations"
      else { continue }
      switch trimmed(line[line.index(after: equals)...]).lowercased() {
      case "false", "0", "no": return false
      case "true", "1", "yes": return true
      default: return nil
      }
    }
    return nil
  }
}
