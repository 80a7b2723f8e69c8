import CPlatformShims

#if canImport(Glibc)
  import Glibc
#endif

/// The CPUs a process may run on: `sched_getaffinity(2)` and `sched_setaffinity(2)` (through
/// `CPlatformShims`, which Swift cannot import as macros).
public enum CPUAffinity {
  /// The size of the kernel's CPU set the calls use, bytes (1,024 CPUs).
  static let maskBytes = 128

  /// The CPUs `pid` (0: the calling thread) may run on, ascending. `sched_getaffinity`.
  public static func get(pid: pid_t = 0) throws(Errno) -> [Int] {
    var mask = [UInt8](repeating: 0, count: maskBytes)
    _ = try SystemCall.retrying {
      mask.withUnsafeMutableBufferPointer {
        CPlatformShims_getAffinity(pid, $0.baseAddress, Int32(maskBytes))
      }
    }
    return (0..<maskBytes * 8).filter { mask[$0 / 8] & (1 << UInt8($0 % 8)) != 0 }
  }

  /// Restricts `pid` (0: the calling thread) to `cpus` (those below 1,024). `sched_setaffinity`.
  public static func set(pid: pid_t = 0, cpus: [Int]) throws(Errno) {
    var mask = [UInt8](repeating: 0, count: maskBytes)
    for cpu in cpus where cpu >= 0 && cpu < maskBytes * 8 { mask[cpu / 8] |= 1 << UInt8(cpu % 8) }
    _ = try SystemCall.retrying {
      mask.withUnsafeBufferPointer { CPlatformShims_setAffinity(pid, $0.baseAddress, Int32(maskBytes)) }
    }
  }
}
