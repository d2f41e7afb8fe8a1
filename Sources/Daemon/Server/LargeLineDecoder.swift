import Glibc
import SessionHost
import Wire

/// Decodes long request lines on a thread of their own, so that the loop never spends the tens
/// of milliseconds a line of several hundred kilobytes takes to parse (a 700-item scene of
/// 64-gons: 60–80 ms in a release build). Its requester waits, reading paused, as it does for
/// any request in progress; everyone else is served meanwhile. One thread: long lines of
/// several clients queue behind each other, never behind physics or the loop.
final class LargeLineDecoder {
  /// Lines at least this long are decoded here (shorter ones cost the loop well under 5 ms).
  static let threshold = 64 << 10

  /// One thread for the process (servers embedded in a test process share it), and the decoder
  /// used only on it.
  private static let thread = StepWorkers(threads: 1)
  private static let decoder = DecoderBox(RequestDecoder())
  private let inbox: LoopInbox

  init(inbox: LoopInbox) { self.inbox = inbox }

  /// Decodes `line` on the decoding thread, then calls `completion` with the result on the loop.
  func decode(
    _ line: [UInt8], completion: @escaping (Result<Request, RejectedRequest>) -> Void
  ) {
    let decoder = Self.decoder
    let inbox = self.inbox
    let job = DecoderBox(Job(line: line, completion: completion))
    Self.thread.run(.due) {
      let result: Result<Request, RejectedRequest>
      do throws(RejectedRequest) {
        result = .success(try decoder.value.decode(job.value.line))
      } catch {
        result = .failure(error)
      }
      let answer = DecoderBox(result)
      inbox.post { job.value.completion(answer.value) }
    }
  }
}

private struct Job {
  let line: [UInt8]
  let completion: (Result<Request, RejectedRequest>) -> Void
}

/// Carries a value to the decoding thread and back; one thread at a time uses it.
private struct DecoderBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
