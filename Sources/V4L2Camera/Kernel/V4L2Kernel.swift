/// The one seam between the V4L2 backend and the operating system (STYLE.md rule 2).
///
/// Every call the backend makes — open, ioctl, mmap, poll, stat — goes through one of these
/// closures, so a test can put a fake kernel behind `V4L2Camera` and exercise every error path
/// without a device. ``system`` calls libv4l2 through `CV4L2Shims`.
///
/// All calls use the raw Linux system-call convention: a result ≥ 0 means success, and a
/// failure returns `-errno` (so a fake returns `-EBUSY`, and no code reads the global `errno`
/// except ``system`` right after the C call). ``V4L2Syscall`` turns negative results into a
/// ``V4L2Error`` and retries `EINTR`, in one place.
public struct V4L2Kernel: Sendable {
  /// Opens a device node: a descriptor, or `-errno`. The corresponding call is `v4l2_open`.
  public var open: @Sendable (_ path: String, _ flags: Int32) -> Int32
  /// Closes a descriptor: 0 or `-errno`. The corresponding call is `v4l2_close`.
  public var close: @Sendable (_ fd: Int32) -> Int32
  /// Issues `request` with `argument` (the request's C struct): ≥ 0 or `-errno`.
  /// The corresponding call is `v4l2_ioctl`.
  public var ioctl:
    @Sendable (_ fd: Int32, _ request: V4L2Request, _ argument: UnsafeMutableRawPointer) -> Int32
  /// Maps a buffer: its address (as an integer), or `-errno`. The corresponding call is
  /// `v4l2_mmap(NULL, length, PROT_READ|PROT_WRITE, MAP_SHARED, fd, offset)`.
  public var mmap: @Sendable (_ fd: Int32, _ length: Int, _ offset: Int64) -> Int
  /// Unmaps a buffer: 0 or `-errno`. The corresponding call is `v4l2_munmap`.
  public var munmap: @Sendable (_ address: UnsafeMutableRawPointer, _ length: Int) -> Int32
  /// Waits until `fd` has a buffer to dequeue: 1 when ready, 0 on timeout, or `-errno`.
  /// Events in the result: `POLLERR` on a vanished device becomes `-ENODEV`.
  /// The corresponding call is `poll(2)` with `POLLIN`; the timeout is in milliseconds.
  public var poll: @Sendable (_ fd: Int32, _ timeoutMilliseconds: Int32) -> Int32
  /// `stat(2)` of a node, or `nil` when the path does not exist.
  public var nodeInfo: @Sendable (_ path: String) -> V4L2NodeInfo?
  /// The name of group `gid` (`getgrgid(3)`), or `nil`.
  public var groupName: @Sendable (_ gid: UInt32) -> String?
  /// The V4L2 video nodes present, `/dev/video0` first (a listing of `/dev`).
  public var videoNodes: @Sendable () -> [String]

  /// Creates a kernel from its calls (a fake for tests, or a wrapper around ``system``).
  public init(
    open: @escaping @Sendable (_ path: String, _ flags: Int32) -> Int32,
    close: @escaping @Sendable (_ fd: Int32) -> Int32,
    ioctl:
      @escaping @Sendable (_ fd: Int32, _ request: V4L2Request, _ argument: UnsafeMutableRawPointer)
      -> Int32,
    mmap: @escaping @Sendable (_ fd: Int32, _ length: Int, _ offset: Int64) -> Int,
    munmap: @escaping @Sendable (_ address: UnsafeMutableRawPointer, _ length: Int) -> Int32,
    poll: @escaping @Sendable (_ fd: Int32, _ timeoutMilliseconds: Int32) -> Int32,
    nodeInfo: @escaping @Sendable (_ path: String) -> V4L2NodeInfo?,
    groupName: @escaping @Sendable (_ gid: UInt32) -> String?,
    videoNodes: @escaping @Sendable () -> [String]
  ) {
    self.open = open
    self.close = close
    self.ioctl = ioctl
    self.mmap = mmap
    self.munmap = munmap
    self.poll = poll
    self.nodeInfo = nodeInfo
    self.groupName = groupName
    self.videoNodes = videoNodes
  }
}
