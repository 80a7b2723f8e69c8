#if canImport(Glibc)
  import Glibc
#endif
import Synchronization
import SystemCalls

/// An app's stdout and stderr: two pipes that bench drains on a thread of its own into the
/// run's log files (`NAME.stdout.log`, `NAME.log` beside its trace).
///
/// The app is untrusted and may write gigabytes. Each file keeps the first
/// ``maxBytesPerStream`` bytes (counting what the file already held: a relock cell's app, or a
/// file left by an earlier bench in the same folder); the bytes past it are read and dropped,
/// and counted (``droppedBytes``, the run's `counts.app_output_dropped_bytes`). The last
/// ``AppOutput/maxBytes`` of stderr are kept in memory for the failed run's error line, however
/// much was dropped. The thread reads whenever a pipe has data, so the app only waits on a full
/// pipe (256 KiB when the kernel allows, else 64 KiB) for as long as bench is slow to be
/// scheduled; nothing on the runner's thread reads or waits on the pipes.
///
/// The drain ends when the app and everything that inherited its descriptors have closed them,
/// or at the latest ``finish(within:)``'s bound after the run asks it to: a program the app
/// left running outside its process group (`setsid`) cannot hold bench. Bytes such a program
/// writes afterwards go nowhere (the pipe is closed; it gets `EPIPE`) and are not counted.
package final class AppOutputDrain: Sendable {
  /// Bytes kept on disk per stream and file: 1 MiB (a camera app's log is a few KiB; a GStreamer
  /// pipeline at `GST_DEBUG=4` about 100 KiB per launch).
  package static let maxBytesPerStream = 1 << 20
  /// How long ``finish(within:)`` waits by default for the pipes' last bytes once the app ended:
  /// its process group is killed when it is reaped, so only a program that left the group can
  /// take this long.
  package static let finishGrace = 0.5

  /// `F_SETPIPE_SZ` (`fcntl.h`, behind `_GNU_SOURCE`, which Glibc's module map does not set).
  static let setPipeSize: Int32 = 1024 + 7

  /// The write ends the app gets as its descriptors 1 and 2 (close-on-exec here; closed in
  /// bench by ``spawned()``).
  package let stdoutForApp: Int32
  /// See ``stdoutForApp``.
  package let stderrForApp: Int32
  private let wakeWrite: Int32
  /// Whether ``spawned()`` closed bench's copies of the write ends.
  private let writeEndsClosed = PThreadMutex(false)
  private let shared: Shared

  /// What the drain thread fills and the runner reads.
  final class Shared: Sendable {
    let storage = PThreadMutex(Storage())
    struct Storage {
      var dropped = 0
      var tail: [UInt8] = []
      var ended = false
      var stopBy: UInt64?
    }
  }

  /// Opens `stdoutPath` and `stderrPath` new (created or emptied: bytes planted there before the
  /// run never appear in its log; a symbolic link is refused, not followed), makes the pipes and starts the
  /// drain thread.
  /// - Throws: the ``Errno`` of the `open`, `pipe` or `pthread_create` that failed.
  package init(stdoutPath: String, stderrPath: String) throws(Errno) {
    var opened: [Int32] = []
    func cleanUp() { opened.forEach { FileDescriptorIO.close($0) } }
    do throws(Errno) {
      let flags = O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_NOFOLLOW | O_CLOEXEC
      let outFile = try SystemCall.retrying { open(stdoutPath, flags, 0o644) }
      opened.append(outFile)
      let errFile = try SystemCall.retrying { open(stderrPath, flags, 0o644) }
      opened.append(errFile)
      let out = try ProcessControl.pipe()
      opened += [out.read, out.write]
      let err = try ProcessControl.pipe()
      opened += [err.read, err.write]
      let wake = try ProcessControl.pipe()
      opened += [wake.read, wake.write]
      for fd in [out.write, err.write] { _ = fcntl(fd, Self.setPipeSize, 256 * 1024) }
      let shared = Shared()
      let streams = [
        Stream(pipe: out.read, file: outFile, budget: Self.budget(outFile), keepsTail: false),
        Stream(pipe: err.read, file: errFile, budget: Self.budget(errFile), keepsTail: true),
      ]
      let wakeRead = wake.read
      try SystemThread.start(name: "app-output") { Self.drain(streams, wake: wakeRead, into: shared) }
      stdoutForApp = out.write
      stderrForApp = err.write
      wakeWrite = wake.write
      self.shared = shared
    } catch {
      cleanUp()
      throw error
    }
  }

  deinit {
    // The runner finishes every drain; this bounds one it did not (a thrown error).
    finish(within: 0)
    FileDescriptorIO.close(wakeWrite)
  }

  /// Closes bench's copies of the app's write ends: call once the app is spawned (or failed
  /// to be), so that the pipes end when the app's copies close.
  package func spawned() {
    let close = writeEndsClosed.withLock { closed in
      defer { closed = true }
      return !closed
    }
    if close {
      FileDescriptorIO.close(stdoutForApp)
      FileDescriptorIO.close(stderrForApp)
    }
  }

  /// Once the app has ended: waits until the pipes are drained to their end, at most `seconds`
  /// (then stops the drain, leaving what was not read unread). Returns at once when already done.
  package func finish(within seconds: Double = finishGrace) {
    spawned()
    let deadline = MonotonicClock.now() &+ UInt64(max(0, seconds) * 1e9)
    let changed = shared.storage.withLock { s in
      guard !s.ended, s.stopBy.map({ deadline < $0 }) ?? true else { return false }
      s.stopBy = deadline
      return true
    }
    if changed {
      var byte: UInt8 = 1
      _ = write(wakeWrite, &byte, 1)  // a full wake pipe already wakes the thread
    }
    // The thread checks its deadline after every read and poll: it ends within a slice of it.
    _ = MonotonicClock.sleep(until: deadline &+ 100_000_000, slice: 1_000_000) {
      shared.storage.withLock { $0.ended }
    }
  }

  /// Bytes read from the app past the cap (both streams), so far.
  package var droppedBytes: Int { shared.storage.withLock { $0.dropped } }

  /// The last non-empty line the app wrote to stderr (``AppOutput/lastLine(of:)``), so far.
  package var lastStderrLine: String? { AppOutput.lastLine(of: shared.storage.withLock { $0.tail }) }

  /// One pipe and its file.
  struct Stream: Sendable {
    var pipe: Int32
    var file: Int32
    var budget: Int
    var keepsTail: Bool
  }

  /// The bytes `file` may still take.
  static func budget(_ file: Int32) -> Int {
    var status = stat()
    guard fstat(file, &status) == 0 else { return 0 }
    return max(0, maxBytesPerStream - Int(status.st_size))
  }

  /// The thread: reads both pipes until both end or the stop deadline passes.
  static func drain(_ initial: [Stream], wake: Int32, into shared: Shared) {
    var streams = initial
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    var fds = streams.map { pollfd(fd: $0.pipe, events: Int16(POLLIN), revents: 0) }
    fds.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0))
    while streams.contains(where: { $0.pipe >= 0 }) {
      let stopBy = shared.storage.withLock { $0.stopBy }
      var timeout: Int32 = -1
      if let stopBy {
        let now = MonotonicClock.now()
        if now >= stopBy { break }
        timeout = Int32(min(1000, (stopBy - now) / 1_000_000 + 1))
      }
      for i in fds.indices { fds[i].revents = 0 }
      guard (try? SystemCall.retrying({ poll(&fds, nfds_t(fds.count), timeout) })) != nil else { break }
      if fds[streams.count].revents != 0 {
        _ = buffer.withUnsafeMutableBytes { read(wake, $0.baseAddress, 64) }
      }
      for i in streams.indices where streams[i].pipe >= 0 && fds[i].revents != 0 {
        let n = buffer.withUnsafeMutableBytes { try? FileDescriptorIO.read(streams[i].pipe, into: $0) } ?? 0
        guard n > 0 else {
          FileDescriptorIO.close(streams[i].pipe)
          streams[i].pipe = -1
          fds[i].fd = -1  // poll skips it
          continue
        }
        let keep = min(n, streams[i].budget)
        var written = 0
        if keep > 0 {
          let ok = buffer.withUnsafeBytes { raw -> Bool in
            (try? FileDescriptorIO.writeAll(streams[i].file, UnsafeRawBufferPointer(rebasing: raw[..<keep])))
              != nil
          }
          // A full disk or a file that cannot take more: this read and the rest are dropped.
          written = ok ? keep : 0
          streams[i].budget = ok ? streams[i].budget - keep : 0
        }
        let tail = streams[i].keepsTail ? buffer[max(0, n - AppOutput.maxBytes)..<n] : []
        shared.storage.withLock { s in
          s.dropped += n - written
          guard !tail.isEmpty else { return }
          s.tail.append(contentsOf: tail)
          if s.tail.count > AppOutput.maxBytes { s.tail.removeFirst(s.tail.count - AppOutput.maxBytes) }
        }
      }
    }
    for stream in streams where stream.pipe >= 0 { FileDescriptorIO.close(stream.pipe) }
    for stream in initial { FileDescriptorIO.close(stream.file) }
    FileDescriptorIO.close(wake)
    shared.storage.withLock { $0.ended = true }
  }
}
