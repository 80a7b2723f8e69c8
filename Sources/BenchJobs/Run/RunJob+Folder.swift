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
        (given as NSString).isAbsolutePath ? given : Self.currentDirectory + "/" + given
    } else {
      let root = CameraAppLocator.packageRoot() ?? Self.currentDirectory
      let f = DateFormatter()
      f.locale = Locale(identifier: "en_US_POSIX")
      f.timeZone = TimeZone(identifier: "UTC")
      f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
      dir = root + "/Results/" + f.string(from: Date())
    }
    do {
      try FileSystem.createDirectory(atPath: dir)
    } catch {
      throw UsageError("--out \(given ?? dir): cannot create the folder (\(error))")
    }
    let probe = dir + "/.write-test-\(ProcessControl.currentProcessID)"
    do {
      try FileSystem.replaceAtomically(Array("x".utf8), atPath: probe)
    } catch {
      throw UsageError("--out \(given ?? dir): the folder is not writable")
    }
    try? FileSystem.remove(atPath: probe, absentIsFine: true)
    return dir
  }

  /// The working directory, or "." where it cannot be read (removed under bench).
  static var currentDirectory: String { (try? FileSystem.currentDirectory()) ?? "." }

  /// Points `Results/latest` at `dir` when `dir` is inside a `Results` folder.
  /// - Throws: the ``Errno`` of the call that failed (the results themselves are written).
  static func linkLatest(_ dir: String) throws(Errno) {
    let parent = (dir as NSString).deletingLastPathComponent
    guard (parent as NSString).lastPathComponent == "Results" else { return }
    try FileSystem.replaceSymbolicLink(
      atPath: parent + "/latest", pointingTo: (dir as NSString).lastPathComponent)
  }
}
