import Primitives
import TransitionDocuments
import Transitions
import Wire

/// The transitions a host offers: the built-ins (`TransitionRegistry`), then the documents it
/// was given (`dynd --transitions`, the XDG data directories, `define`), each with where it came
/// from. A name belongs to one transition: a document whose name is taken is refused, naming
/// both sources. A session keeps the transition it was opened with whatever is defined later.
struct TransitionCatalog {
  struct Defined {
    let document: TransitionDocument
    /// Where it came from: a file's path, or `define` by a client.
    let source: String
  }

  private(set) var documents: [Defined] = []

  /// The most documents a daemon holds (each up to 1 MiB): a client that defines more is told
  /// `busy` rather than let the daemon grow without bound.
  static let maxDocuments = 256

  /// Every name, the built-ins' first, in `hello`'s order.
  var names: [String] { TransitionRegistry.names + documents.map(\.document.name) }

  /// Every transition's parameters, as `hello` lists them.
  var parameterTables: [ParameterTable] {
    SessionHost.builtInParameterTables
      + documents.map {
        ParameterTable(
          transition: $0.document.name,
          parameters: $0.document.parameters.wireDeclarations)
      }
  }

  func document(named name: String) -> TransitionDocument? {
    documents.first { $0.document.name == name }?.document
  }

  /// Adds `document`; refused when its name is taken, naming what holds it.
  mutating func define(_ document: TransitionDocument, source: String) throws(ProtocolError) {
    if TransitionRegistry.type(named: document.name) != nil {
      throw ProtocolError(
        .invalidScene,
        "transition '\(document.name)' of \(source) is refused: the name is a built-in "
          + "transition's (dynd itself)")
    }
    if let holder = documents.first(where: { $0.document.name == document.name }) {
      throw ProtocolError(
        .invalidScene,
        "transition '\(document.name)' of \(source) is refused: the name is taken by the "
          + "document of \(holder.source)")
    }
    guard documents.count < Self.maxDocuments else {
      throw ProtocolError(
        .busy,
        "transition '\(document.name)' of \(source) is refused: dynd holds \(Self.maxDocuments) "
          + "transition documents, its most (a reload, SIGHUP, forgets those defined)")
    }
    documents.append(Defined(document: document, source: source))
  }

  /// Replaces the documents with `loaded` (a reload); the sentences of those refused.
  mutating func replace(with loaded: [(TransitionDocument, String)]) -> [String] {
    documents = []
    var refused: [String] = []
    for (document, source) in loaded {
      do throws(ProtocolError) {
        try define(document, source: source)
      } catch {
        refused.append(error.message)
      }
    }
    return refused
  }
}

extension SessionHost {
  /// Adds a document's transition for new sessions (`define`, a file read at start); refused
  /// when its name is taken, naming what holds it.
  public func define(_ document: TransitionDocument, source: String) throws(ProtocolError) {
    try transitions.define(document, source: source)
  }

  /// Replaces the documents' transitions with `loaded` (documents and where they came from), as
  /// a reload does; sessions keep theirs. Returns why each refused one was.
  @discardableResult
  public func replaceDocuments(_ loaded: [(TransitionDocument, String)]) -> [String] {
    transitions.replace(with: loaded)
  }

  /// The names of the transitions offered, in `hello`'s order.
  public var transitionNames: [String] { transitions.names }

  /// The names of the documents' transitions, in the order they were defined.
  public var documentNames: [String] { transitions.documents.map(\.document.name) }
}
