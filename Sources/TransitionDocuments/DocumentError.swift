/// One thing wrong with a transition document: where (a JSON pointer, RFC 6901:
/// `/scene/items/0/size/1`) and which rule it breaks.
public struct DocumentError: Error, Equatable, Sendable, CustomStringConvertible {
  public let pointer: String
  public let message: String

  public init(_ pointer: String, _ message: String) {
    self.pointer = pointer
    self.message = message
  }

  public var description: String { "\(pointer.isEmpty ? "/" : pointer): \(message)" }
}

/// Every error of a document at once (`TransitionDocument.read`): what `dynctl check` prints
/// and what `define` refuses with.
public struct DocumentErrors: Error, Equatable, Sendable {
  public let errors: [DocumentError]

  /// The most errors one document reports: past them the rest are counted, not listed.
  public static let maxListed = 50
}

/// A JSON pointer's tokens escaped (`~` as `~0`, `/` as `~1`) and joined.
func pointer(_ tokens: [String]) -> String {
  tokens.map { token in
    "/"
      + token.map { $0 == "~" ? "~0" : $0 == "/" ? "~1" : String($0) }.joined()
  }.joined()
}

/// The pointer of what a wire decoder's message names by its dotted path, the first
/// `scene.…` in it (`field 'scene.items[0].size[1]'` → `/scene/items/0/size/1`; `behavior
/// scene.behaviors[2] names …` → `/scene/behaviors/2`), or nil when it names none.
func pointer(ofFieldIn message: String) -> String? {
  let marker = Array("scene")
  let characters = Array(message)
  let isPath = { (c: Character) in c.isLetter || c.isNumber || "_.[]".contains(c) }
  guard
    let start = characters.indices.first(where: {
      $0 + marker.count < characters.count
        && Array(characters[$0..<$0 + marker.count]) == marker
        && (characters[$0 + marker.count] == "." || characters[$0 + marker.count] == "[")
        && ($0 == 0 || !isPath(characters[$0 - 1]))
    })
  else { return nil }
  var end = start
  while end < characters.count, isPath(characters[end]) { end += 1 }
  while end > start, characters[end - 1] == "." { end -= 1 }
  let path = String(characters[start..<end])
  var tokens: [String] = []
  for part in path.split(separator: ".") {
    var rest = Substring(part)
    if let bracket = rest.firstIndex(of: "[") {
      if bracket > rest.startIndex { tokens.append(String(rest[..<bracket])) }
      rest = rest[bracket...]
      while let open = rest.firstIndex(of: "["), let close = rest.firstIndex(of: "]") {
        tokens.append(String(rest[rest.index(after: open)..<close]))
        rest = rest[rest.index(after: close)...]
      }
    } else {
      tokens.append(String(rest))
    }
  }
  return pointer(tokens)
}
