import Dispatch
import LaunchContract
import Synchronization
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// Control commands, as an app reads what arrives on `FIRSTFRAME_CONTROL`: the bytes go down a
/// pipe into a `ControlChannel`, which must deliver exactly the lines a reference split gives
/// (each complete line cut to `maxLineBytes`, a known command by name, any other non-blank line
/// as unknown, the unterminated tail dropped) and then end.
enum ControlFuzzer {
  static func run(_ data: [UInt8]) -> [String] {
    var expected: [String] = []
    var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    lines.removeLast()  // not terminated: the channel drops it at end of input
    for line in lines {
      let text = String(decoding: line.prefix(ControlChannel.maxLineBytes), as: UTF8.self)
      if let command = ControlCommand(line: text) {
        expected.append("command \(command)")
      } else if text.contains(where: { $0 != " " && $0 != "\t" && $0 != "\r" }) {
        expected.append("unknown \(text)")
      }
    }
    let pipe: (read: Int32, write: Int32)
    let channel: ControlChannel
    do {
      pipe = try ProcessControl.pipe()
      channel = try ControlChannel(endpoint: .descriptor(pipe.read))
    } catch {
      return ["cannot set up the channel: \(error)"]
    }
    defer { close(pipe.read) }
    let received = PThreadMutex<[String]>([])
    let ended = DispatchSemaphore(value: 0)
    do {
      try channel.start(
        handle: { command in received.withLock { $0.append("command \(command)") } },
        unknown: { line in received.withLock { $0.append("unknown \(line)") } },
        ended: { ended.signal() })
    } catch {
      close(pipe.write)
      return ["cannot start the channel's thread: \(error)"]
    }
    try? FileDescriptorIO.writeAll(pipe.write, data)
    close(pipe.write)
    guard ended.wait(timeout: .now() + .seconds(10)) == .success else {
      return ["the channel did not end within 10 s of its input closing"]
    }
    let got = received.withLock { $0 }
    return got == expected ? [] : ["the channel delivered \(got), expected \(expected)"]
  }
}
