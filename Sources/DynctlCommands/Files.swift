import Glibc

/// Writes `text` to `path` (created or truncated, mode 0644).
func writeFile(_ path: String, _ text: String) throws(Failure) {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
  guard fd >= 0 else { throw .unwritableFile(path: path, reason: String(cString: strerror(errno))) }
  defer { close(fd) }
  var text = text
  let failure: Int32? = text.withUTF8 { bytes in
    var offset = 0
    while offset < bytes.count {
      let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += written
    }
    return nil
  }
  if let failure {
    throw .unwritableFile(path: path, reason: String(cString: strerror(failure)))
  }
}

/// The whole text of a file, or of standard input (`Console.current`'s) for `-`.
func readFile(_ path: String) throws(Failure) -> String {
  guard path == "-" else {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw .unreadableFile(path: path, reason: String(cString: strerror(errno)))
    }
    defer { close(fd) }
    return try read(fd, path: path)
  }
  switch Console.current.standardInput {
  case .descriptor(let fd): return try read(fd, path: path)
  case .text(let text): return text
  }
}

/// The whole text read from `fd`, to its end.
private func read(_ fd: Int32, path: String) throws(Failure) -> String {
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65536)
  while true {
    let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
    if count < 0 {
      if errno == EINTR { continue }
      throw .unreadableFile(path: path, reason: String(cString: strerror(errno)))
    }
    if count == 0 { break }
    bytes.append(contentsOf: chunk[..<count])
  }
  return String(decoding: bytes, as: UTF8.self)
}
