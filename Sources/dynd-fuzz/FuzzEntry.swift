import EmbeddedHost

// WIP: replaced by the host-level fuzz driver.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let host = EmbeddedHost()
  let peer = host.connect()
  host.send(Array(UnsafeBufferPointer(start: data, count: size)), from: peer)
  return 0
}
