#if canImport(Glibc)
  import Glibc
#endif
import BenchKit
import Foundation
import SystemCalls
import AppBuilds
import CommandLineKit

/// The results folder: made (and checked writable) when the command is prepared, linked from
/// `Results/latest` when the results are written.
extension RunJob {
  /// Creates the results folder (default `Results/<UTC timestamp>`) and checks it is writable.
  static func prepareOutDir(_ given: String?) throws(UsageError) -> String {
    let dir: String
    if let given {
      dir =
        (given as NSString).isAbsolutePath ? given : FileManager.default.currentDirectoryPath + "/" + given
    } else {
      let root = CameraAppLocator.packageRoot() ?? FileManager.default.currentDirectoryPath
      let f = DateFormatter()
      f.locale = Locale(identifier: "en_US_POSIX")
      f.timeZone = TimeZone(identifier: "UTC")
      f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
      dir = root + "/Results/" + f.string(from: Date())
    }
    do {
      try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    } catch {
      throw UsageError("--out \(given ?? dir): cannot create the folder (\(reason(error)))")
    }
    let probe = dir + "/.write-test-\(getpid())"
    guard FileManager.default.createFile(atPath: probe, contents: Data("x".utf8)) else {
      throw UsageError("--out \(given ?? dir): the folder is not writable")
    }
    unlink(probe)
    return dir
  }

  static func reason(_ error: any Error) -> String {
    let ns = error as NSError
    if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain
    {
      return String(cString: strerror(Int32(underlying.code)))
    }
    return ns.localizedDescription
  }

  /// Points `Results/latest` at `dir` when `dir` is inside a `Results` folder.
  /// - Throws: the ``Errno`` of the call that failed (the results themselves are written).
  static func linkLatest(_ dir: String) throws(Errno) {
    let parent = (dir as NSString).deletingLastPathComponent
    guard (parent as NSString).lastPathComponent == "Results" else { return }
    try FileSystem.replaceSymbolicLink(
      atPath: parent + "/latest", pointingTo: (dir as NSString).lastPathComponent)
  }
}
