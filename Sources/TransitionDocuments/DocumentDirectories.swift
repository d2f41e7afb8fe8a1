import Glibc

/// Where dynd finds transition documents, and reading them: every `*.json` file of each
/// directory, in name order, the directories in the order given (`dynd --transitions DIR`,
/// repeatable) or, by default, the XDG data directories' `dynd/transitions`:
/// `$XDG_DATA_HOME` (default `~/.local/share`), then each of `$XDG_DATA_DIRS` (default
/// `/usr/local/share:/usr/share`, where the package puts its own).
public enum DocumentDirectories {
  /// The most files read in one load: as many documents as a daemon holds.
  public static let maxFiles = 256

  /// The default directories for `environment` (the XDG Base Directory rules).
  public static func defaults(_ environment: [String: String]) -> [String] {
    var bases: [String] = []
    if let home = environment["XDG_DATA_HOME"], home.hasPrefix("/") {
      bases.append(home)
    } else if let home = environment["HOME"], home.hasPrefix("/") {
      bases.append(home + "/.local/share")
    }
    let shared =
      environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 }
      ?? "/usr/local/share:/usr/share"
    bases += shared.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
    return bases.map { $0 + "/dynd/transitions" }
  }

  /// The documents of `directories`, each with its path, and a sentence for each file that
  /// could not be read or is not a valid document (one per error, with its pointer). A missing
  /// directory is skipped when `missingIsFine`, else it is a problem.
  public static func load(_ directories: [String], missingIsFine: Bool)
    -> (documents: [(TransitionDocument, String)], problems: [String])
  {
    var documents: [(TransitionDocument, String)] = []
    var problems: [String] = []
    var read = 0
    for directory in directories {
      guard let names = jsonFiles(in: directory) else {
        if !missingIsFine { problems.append("\(directory): cannot read the directory") }
        continue
      }
      for name in names {
        let path = directory + "/" + name
        // No more than a daemon holds (`TransitionCatalog.maxDocuments`).
        guard read < maxFiles else {
          problems.append("\(path): not read: \(maxFiles) documents were read already, the most")
          continue
        }
        read += 1
        guard let bytes = readFile(path, limit: TransitionDocument.maxBytes + 1) else {
          problems.append("\(path): cannot be read")
          continue
        }
        do throws(DocumentErrors) {
          documents.append((try TransitionDocument.read(text: bytes), path))
        } catch {
          problems += error.errors.map { "\(path): \($0)" }
        }
      }
    }
    return (documents, problems)
  }

  /// The names of the `*.json` files of `directory`, sorted; nil when it cannot be read.
  static func jsonFiles(in directory: String) -> [String]? {
    guard let stream = opendir(directory) else { return nil }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafePointer(to: entry.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
      }
      if name.hasSuffix(".json"), !name.hasPrefix(".") { names.append(name) }
    }
    return names.sorted()
  }

  /// The first `limit` bytes of a regular file; nil when it cannot be opened or read.
  public static func readFile(_ path: String, limit: Int) -> [UInt8]? {
    // Not blocking: a FIFO named `*.json` is refused at once (not a regular file), not waited on.
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while bytes.count < limit {
      let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if got < 0 { return nil }
      if got == 0 { break }
      bytes += buffer[0..<got]
    }
    return bytes
  }
}
