import CV4L2Shims
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

extension V4L2Kernel {
  /// The real kernel: libv4l2 (`v4l2_open`, `v4l2_ioctl`, `v4l2_mmap`) through `CV4L2Shims`,
  /// which converts formats the device lacks (for example YUV 4:2:0 from MJPEG) in user space.
  /// libv4l2 is loaded by the first `open` (``LibV4L2``); when it cannot be, `open` returns
  /// `-ELIBACC` ("cannot access a needed shared library"), which names the package to install.
  public static let system = V4L2Kernel(
    open: { path, flags in
      guard LibV4L2.load() == nil else { return -ELIBACC }
      return negativeErrno(CV4L2Shims_open(path, flags))
    },
    close: { fd in negativeErrno(CV4L2Shims_close(fd)) },
    ioctl: { fd, request, argument in negativeErrno(CV4L2Shims_ioctl(fd, request.code, argument)) },
    mmap: { fd, length, offset in
      guard let address = CV4L2Shims_mmap(fd, length, offset) else { return -Int(errno) }
      return Int(bitPattern: address)
    },
    munmap: { address, length in negativeErrno(CV4L2Shims_munmap(address, length)) },
    poll: { fd, timeout in
      var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let n = Glibc.poll(&entry, 1, timeout)
      if n < 0 { return -errno }
      if n > 0, entry.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0,
        entry.revents & Int16(POLLIN) == 0
      {
        return -ENODEV
      }
      return n
    },
    nodeInfo: { path in
      var s = stat()
      guard stat(path, &s) == 0 else { return nil }
      return V4L2NodeInfo(
        isCharacterDevice: s.st_mode & S_IFMT == S_IFCHR, ownerID: s.st_uid, groupID: s.st_gid,
        permissions: UInt32(s.st_mode & 0o777))
    },
    groupName: { gid in
      var entry = group()
      var result: UnsafeMutablePointer<group>?
      var buffer = [CChar](repeating: 0, count: 4096)
      guard getgrgid_r(gid, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
      return String(cString: entry.gr_name)
    },
    videoNodes: {
      let names = (try? FileSystem.contentsOfDirectory(atPath: "/dev")) ?? []
      return names.compactMap { name -> (Int, String)? in
        guard name.hasPrefix("video"), let n = Int(name.dropFirst(5)) else { return nil }
        return (n, "/dev/" + name)
      }.sorted { $0.0 < $1.0 }.map(\.1)
    }
  )

  /// The kernel without libv4l2: `open`, `close`, `ioctl`, `mmap` and `munmap` go straight to the
  /// system calls; the rest is ``system``'s. For a reader that must see the driver's state, not
  /// libv4l2's view of it: libv4l2 answers `VIDIOC_G_FMT` on a capture node from the format it
  /// cached at open (or at its own `S_FMT`), so through it a watcher never sees another process
  /// change the format. No format conversion is done.
  public static let direct: V4L2Kernel = {
    var kernel = system
    kernel.open = { path, flags in negativeErrno(CV4L2Shims_directOpen(path, flags)) }
    kernel.close = { fd in negativeErrno(CV4L2Shims_directClose(fd)) }
    kernel.ioctl = { fd, request, argument in
      negativeErrno(CV4L2Shims_directIoctl(fd, request.code, argument))
    }
    kernel.mmap = { fd, length, offset in
      guard let address = CV4L2Shims_directMmap(fd, length, offset) else { return -Int(errno) }
      return Int(bitPattern: address)
    }
    kernel.munmap = { address, length in negativeErrno(CV4L2Shims_directMunmap(address, length)) }
    return kernel
  }()

  /// `-1` with `errno` → `-errno`; anything else unchanged. Reads `errno` right after the call.
  private static func negativeErrno(_ result: Int32) -> Int32 {
    result < 0 ? -errno : result
  }
}
