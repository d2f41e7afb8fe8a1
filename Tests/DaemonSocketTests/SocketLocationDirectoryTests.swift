import DaemonSocket
import Testing

/// The directory a socket path is in (`SocketLocation.parent(of:)`), which dynd creates when the
/// user's path names a missing one.
@Suite("Socket location: the socket's directory")
struct SocketLocationDirectoryTests {
  @Test(
    "parent(of:) is dirname(3)",
    arguments: [
      ("/run/user/1000/dynd/dynd.sock", "/run/user/1000/dynd"),
      ("dir/dynd.sock", "dir"),
      ("dynd.sock", "."),
      ("/dynd.sock", "/"),
      ("dir//dynd.sock", "dir"),
      ("/a/b/", "/a"),
      ("/", "/"),
    ])
  func parent(path: String, expected: String) {
    #expect(SocketLocation.parent(of: path) == expected)
  }

  @Test("the directory is known for every rule; the private one only for the last two")
  func directory() {
    let flag = SocketLocation.resolve(flag: "/x/y/dynd.sock", environment: [:], userID: 1000)
    #expect(flag.directory == "/x/y")
    #expect(flag.privateDirectory == nil)
    let runtime = SocketLocation.resolve(
      flag: nil, environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], userID: 1000)
    #expect(runtime.directory == "/run/user/1000/dynd")
    #expect(runtime.privateDirectory == runtime.directory)
  }
}
