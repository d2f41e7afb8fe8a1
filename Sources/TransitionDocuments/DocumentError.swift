/// One thing wrong with a transition document: where (a JSON pointer, RFC 6901:
/// `/scene/items/0/size/1`) and which rule it breaks.
public struct DocumentError: Error, Hashable, Sendable, CustomStringConvertible {
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
  /// The first `maxListed` errors, in the order found.
  public let errors: [DocumentError]
  /// How many there were in all.
  public let total: Int

  public init(errors: [DocumentError], total: Int? = nil) {
    self.errors = errors
    self.total = total ?? errors.count
  }

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
  // `name[0][1]` parts; anything else (a key the client wrote with brackets in it) is a token
  // as it stands.
  var tokens: [String] = []
  for part in String(characters[start..<end]).split(separator: ".") {
    let pieces = part.split(separator: "[", omittingEmptySubsequences: false)
    let indices = pieces.dropFirst()
    if indices.allSatisfy({
      $0.hasSuffix("]") && $0.dropLast().allSatisfy(\.isNumber) && $0.count > 1
    }) {
      if !pieces[0].isEmpty { tokens.append(String(pieces[0])) }
      tokens += indices.map { String($0.dropLast()) }
    } else {
      tokens.append(String(part))
    }
  }
  return pointer(tokens)
}
