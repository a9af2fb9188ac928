import CTerminalGuard
import Foundation
import Testing

/// ncurses 6.4 flushes after every cursor move; the terminal backend gathers a frame's writes and
/// sends them in one (tg_batch_*). Checked on a pipe: what the reader sees, and when.
@Suite("output batching")
struct OutputBatchTests {
  /// A pipe whose write end plays the terminal; `available` reads what has arrived so far.
  private final class Pipe {
    let read: Int32
    let write: Int32

    init() throws {
      var fds: [Int32] = [0, 0]
      try #require(pipe(&fds) == 0)
      (read, write) = (fds[0], fds[1])
      _ = fcntl(read, F_SETFL, O_NONBLOCK)
    }

    deinit {
      close(read)
      close(write)
    }

    /// Everything readable now, one `read` call at a time.
    func chunks() -> [String] {
      var result: [String] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let n = Foundation.read(read, &buffer, buffer.count)
        if n <= 0 { return result }
        result.append(String(decoding: buffer.prefix(n), as: UTF8.self))
      }
    }
  }

  private func put(_ text: String, _ fd: Int32) {
    _ = text.withCString { Foundation.write(fd, $0, strlen($0)) }
  }

  @Test func aBatchReachesTheReaderInOneWriteWhenItEnds() throws {
    let pipe = try Pipe()
    let batch = try #require(tg_batch_open(pipe.write))
    defer { tg_batch_close(batch) }
    #expect(tg_batch_begin(batch) == 0)
    for line in ["\u{1B}[1;1Hone", "\u{1B}[2;1Htwo", "\u{1B}[3;1Hthree"] { put(line, pipe.write) }
    #expect(pipe.chunks().isEmpty, "nothing reaches the terminal while the batch is open")
    #expect(tg_batch_end(batch, 1) == 0)
    #expect(pipe.chunks() == ["\u{1B}[1;1Hone\u{1B}[2;1Htwo\u{1B}[3;1Hthree"])
    // The descriptor writes straight through again, and the next batch starts empty.
    put("after", pipe.write)
    #expect(pipe.chunks() == ["after"])
    #expect(tg_batch_begin(batch) == 0)
    put("next", pipe.write)
    #expect(tg_batch_end(batch, 1) == 0)
    #expect(pipe.chunks() == ["next"])
  }

  /// The terminal set-up is kept back and goes out with the first frame.
  @Test func anUnsentBatchGoesOutWithTheNextOneThatSends() throws {
    let pipe = try Pipe()
    let batch = try #require(tg_batch_open(pipe.write))
    defer { tg_batch_close(batch) }
    #expect(tg_batch_begin(batch) == 0)
    put("setup;", pipe.write)
    #expect(tg_batch_end(batch, 0) == 0)
    #expect(pipe.chunks().isEmpty)
    #expect(tg_batch_begin(batch) == 0)
    put("frame", pipe.write)
    #expect(tg_batch_end(batch, 1) == 0)
    #expect(pipe.chunks() == ["setup;frame"])
  }

  /// A frame larger than the stack buffer and than one pipe read still arrives whole, in order.
  @Test func aLargeBatchArrivesWhole() throws {
    let pipe = try Pipe()
    let batch = try #require(tg_batch_open(pipe.write))
    defer { tg_batch_close(batch) }
    let line = String(repeating: "x", count: 199) + "\n"
    #expect(tg_batch_begin(batch) == 0)
    for _ in 0..<150 { put(line, pipe.write) }  // 30,000 bytes: under the pipe's 64 KiB
    #expect(tg_batch_end(batch, 1) == 0)
    #expect(pipe.chunks().joined() == String(repeating: line, count: 150))
  }

  @Test func misuseIsRefusedNotFollowed() throws {
    let pipe = try Pipe()
    let batch = try #require(tg_batch_open(pipe.write))
    defer { tg_batch_close(batch) }
    #expect(tg_batch_end(batch, 1) == -1, "no batch is open")
    #expect(tg_batch_begin(batch) == 0)
    #expect(tg_batch_begin(batch) == -1, "one batch at a time")
    #expect(tg_batch_end(batch, 1) == 0)
    #expect(tg_batch_begin(nil) == -1 && tg_batch_end(nil, 1) == -1)
  }
}
