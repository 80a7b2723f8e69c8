/// One event of the kernel's device trace (``KernelDeviceTraceParser``): a system call's entry or
/// exit, a buffer dequeued (`v4l2:v4l2_dqbuf`) or completed by the driver (`vb2:vb2_buf_done`),
/// with the task that did it.
package struct KernelDeviceEvent: Sendable, Hashable {
  /// What happened.
  package enum Kind: Sendable, Hashable {
    /// `sys_enter_openat` (the file name is a user pointer the trace does not print).
    case openEnter
    /// `sys_exit_openat`: the descriptor, or a negative errno.
    case openExit(result: Int)
    /// `sys_enter_ioctl` on descriptor `fd` with `request` (`VIDIOC_*`).
    case ioctlEnter(fd: Int, request: UInt32)
    /// `sys_exit_ioctl`: 0 or a negative errno.
    case ioctlExit(result: Int)
    /// `sys_enter_mmap` of descriptor `fd`.
    case mmapEnter(fd: Int)
    /// `sys_exit_mmap`.
    case mmapExit
    /// `v4l2:v4l2_dqbuf`: a buffer of the node with char-device `minor` dequeued, inside the
    /// task's `VIDIOC_DQBUF`; `capture` when its type is `VIDEO_CAPTURE[_MPLANE]`.
    case dequeued(minor: Int, capture: Bool)
    /// `vb2:vb2_buf_done`: the driver completed a buffer (in the driver's thread); `capture` when
    /// its queue's type is a capture one (1 or 9). The event does not name the node.
    case bufferDone(capture: Bool)
  }

  /// When, CLOCK_MONOTONIC ns (the instance's `mono` clock).
  package var ts: UInt64
  /// The thread.
  package var tid: Int
  /// Its process (`record-tgid`), when the trace has it.
  package var tgid: Int?
  /// The thread's name.
  package var comm: String
  /// What it did.
  package var kind: Kind

  /// Creates an event.
  package init(ts: UInt64, tid: Int, tgid: Int?, comm: String, kind: Kind) {
    self.ts = ts
    self.tid = tid
    self.tgid = tgid
    self.comm = comm
    self.kind = kind
  }

  /// The process: the thread group, or the thread when the trace lacks the column.
  package var process: Int { tgid ?? tid }
}
