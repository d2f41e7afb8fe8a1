import Daemon
import Glibc
import Testing

@Suite("SocketPath")
struct TransportSocketPathTests {
  let uid = getuid()

  @Test("the --socket flag wins over everything")
  func flagWins() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let resolved = try SocketPath.resolve(
      flag: root + "/flag.sock",
      environment: ["DYND_SOCKET": root + "/env.sock", "XDG_RUNTIME_DIR": root],
      temporaryRoot: root)
    #expect(resolved == SocketPath(path: root + "/flag.sock", source: .flag))
    #expect(fileStatus(root + "/dynd") == nil, "the default directory is not created")
  }

  @Test("$DYND_SOCKET comes next")
  func environmentNext() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let resolved = try SocketPath.resolve(
      flag: nil, environment: ["DYND_SOCKET": root + "/env.sock", "XDG_RUNTIME_DIR": root],
      temporaryRoot: root)
    #expect(resolved == SocketPath(path: root + "/env.sock", source: .environment))
  }

  @Test("a missing directory of --socket or $DYND_SOCKET is created 0700, and checked")
  func givenDirectoryCreated() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let flag = try SocketPath.resolve(
      flag: root + "/flag/dynd.sock", environment: [:], temporaryRoot: root)
    #expect(flag == SocketPath(path: root + "/flag/dynd.sock", source: .flag))
    let environment = try SocketPath.resolve(
      flag: nil, environment: ["DYND_SOCKET": root + "/env/dynd.sock"], temporaryRoot: root)
    #expect(environment.source == .environment)
    for directory in [root + "/flag", root + "/env"] {
      let info = try #require(fileStatus(directory))
      #expect(info.st_mode & S_IFMT == S_IFDIR)
      #expect(info.st_mode & 0o7777 == 0o700)
      #expect(info.st_uid == uid)
    }
    // Resolving again uses the directory it made.
    #expect(try SocketPath.resolve(flag: root + "/flag/dynd.sock") == flag)
    // A dangling link in its place is not a missing directory: refused as the default's is.
    #expect(symlink(root + "/nowhere", root + "/link") == 0)
    let error = try #require(throws: TransportError.self) {
      try SocketPath.resolve(flag: root + "/link/dynd.sock")
    }
    #expect(error.code == .unsafeDirectory)
    #expect(error.message.contains("symbolic link"))
  }

  @Test("an existing directory of --socket is the user's choice: used as it is, unchecked")
  func givenDirectoryUsedAsItIs() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let shared = root + "/shared"
    #expect(mkdir(shared, 0o700) == 0)
    #expect(chmod(shared, 0o1777) == 0)
    #expect(symlink(shared, root + "/link") == 0)
    for path in [shared + "/dynd.sock", root + "/link/dynd.sock"] {
      #expect(try SocketPath.resolve(flag: path).path == path)
    }
    #expect(fileStatus(shared)!.st_mode & 0o7777 == 0o1777, "never changed")
  }

  @Test("a --socket directory whose parent is missing is refused, naming the parent")
  func givenDirectoryWithoutParent() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let error = try #require(throws: TransportError.self) {
      try SocketPath.resolve(flag: root + "/a/b/dynd.sock")
    }
    #expect(error.code == .missingDirectory)
    #expect(
      error.message.hasPrefix(
        "cannot create the socket directory \(root)/a/b: its parent \(root)/a does not exist"))
    #expect(fileStatus(root + "/a") == nil, "only the socket's own directory is created")
  }

  @Test("$XDG_RUNTIME_DIR/dynd is created with mode 0700")
  func runtimeDirectory() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let resolved = try SocketPath.resolve(
      flag: nil, environment: ["DYND_SOCKET": "", "XDG_RUNTIME_DIR": root], temporaryRoot: "/nope")
    #expect(resolved == SocketPath(path: root + "/dynd/dynd.sock", source: .runtimeDirectory))
    let info = try #require(fileStatus(root + "/dynd"))
    #expect(info.st_mode & S_IFMT == S_IFDIR)
    #expect(info.st_mode & 0o777 == 0o700)
    #expect(info.st_uid == uid)
    // Resolving again accepts the directory it made.
    #expect(try SocketPath.resolve(flag: nil, environment: ["XDG_RUNTIME_DIR": root]) == resolved)
  }

  @Test("the private directory is known for the paths dynd chose, not for the user's")
  func privateDirectory() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let runtime = try SocketPath.resolve(
      flag: nil, environment: ["XDG_RUNTIME_DIR": root], temporaryRoot: "/nope")
    #expect(runtime.privateDirectory == root + "/dynd")
    let temporary = try SocketPath.resolve(flag: nil, environment: [:], temporaryRoot: root)
    #expect(temporary.privateDirectory == root + "/dynd-\(uid)")
    #expect(SocketPath(path: "/x/flag.sock", source: .flag).privateDirectory == nil)
    #expect(SocketPath(path: "/x/env.sock", source: .environment).privateDirectory == nil)
  }

  @Test("a relative $XDG_RUNTIME_DIR is ignored")
  func relativeRuntimeDirectoryIgnored() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let resolved = try SocketPath.resolve(
      flag: nil, environment: ["XDG_RUNTIME_DIR": "run/user"], temporaryRoot: root)
    #expect(resolved.source == .temporaryDirectory)
  }

  @Test("otherwise /tmp/dynd-$UID/dynd.sock with a 0700 directory")
  func temporaryFallback() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let resolved = try SocketPath.resolve(flag: nil, environment: [:], temporaryRoot: root)
    #expect(
      resolved == SocketPath(path: "\(root)/dynd-\(uid)/dynd.sock", source: .temporaryDirectory))
    let info = try #require(fileStatus("\(root)/dynd-\(uid)"))
    #expect(info.st_mode & S_IFMT == S_IFDIR)
    #expect(info.st_mode & 0o777 == 0o700)
  }

  @Test("a directory open to group or others is refused and left alone")
  func refusesOpenDirectory() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let directory = "\(root)/dynd-\(uid)"
    #expect(mkdir(directory, 0o700) == 0)
    #expect(chmod(directory, 0o755) == 0)
    let error = try #require(throws: TransportError.self) {
      try SocketPath.resolve(flag: nil, environment: [:], temporaryRoot: root)
    }
    #expect(error.code == .unsafeDirectory)
    #expect(error.message.contains(directory))
    #expect(error.message.contains("0755"))
    #expect(
      fileStatus(directory)!.st_mode & 0o777 == 0o755, "never repaired behind the user's back")
  }

  @Test("a symlink in place of the directory is refused")
  func refusesSymlink() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let target = root + "/elsewhere"
    #expect(mkdir(target, 0o700) == 0)
    #expect(chmod(target, 0o700) == 0)
    #expect(symlink(target, "\(root)/dynd-\(uid)") == 0)
    let error = try #require(throws: TransportError.self) {
      try SocketPath.resolve(flag: nil, environment: [:], temporaryRoot: root)
    }
    #expect(error.code == .unsafeDirectory)
    #expect(error.message.contains("symbolic link"))
  }

  @Test("a directory owned by another uid is refused")
  func refusesForeignOwner() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let other = uid &+ 4242
    let directory = "\(root)/dynd-\(other)"
    #expect(mkdir(directory, 0o700) == 0)
    #expect(chmod(directory, 0o700) == 0)
    let error = try #require(throws: TransportError.self) {
      try SocketPath.resolve(flag: nil, environment: [:], userID: other, temporaryRoot: root)
    }
    #expect(error.code == .unsafeDirectory)
    #expect(error.message.contains("owned by uid \(uid)"))
  }

  @Test("a file in place of the directory is refused")
  func refusesFile() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let fd = open("\(root)/dynd-\(uid)", O_CREAT | O_WRONLY, 0o600)
    close(fd)
    let error = try #require(throws: TransportError.self) {
      try SocketPath.resolve(flag: nil, environment: [:], temporaryRoot: root)
    }
    #expect(error.code == .unsafeDirectory)
    #expect(error.message.contains("not a directory"))
  }

  @Test("paths longer than 107 bytes are refused up front")
  func lengthLimit() throws {
    let fits = "/" + String(repeating: "a", count: 106)
    #expect(try SocketPath.resolve(flag: fits).path == fits)
    let error = try #require(throws: TransportError.self) {
      try SocketPath.resolve(flag: fits + "b")
    }
    #expect(error.code == .pathTooLong)
    #expect(error.message.contains("108 bytes"))
    #expect(error.message.contains("107"))

    // A deep runtime directory: refused before the dynd directory is created.
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let deep = root + "/" + String(repeating: "d", count: 100)
    #expect(mkdir(deep, 0o700) == 0)
    #expect(throws: TransportError.self) {
      try SocketPath.resolve(flag: nil, environment: ["XDG_RUNTIME_DIR": deep])
    }
    #expect(fileStatus(deep + "/dynd") == nil)

    #expect(throws: TransportError(.invalidPath, "the socket path is empty")) {
      try SocketPath.resolve(flag: "")
    }
  }
}
