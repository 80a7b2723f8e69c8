#if canImport(Glibc)
  import Glibc
#endif
import LaunchContract

/// The preload library, `libfirstframe-preload.so`: launch phases for an app that does not speak
/// the trace protocol, without changing its code (Preload/README.md).
///
/// Loaded into the app with `LD_PRELOAD`, it appends `app.main` (from its constructor) and the
/// device phases' events (`device.open`, `device.format`, `device.buffers`, `device.stream_on`,
/// `device.first_buffer`) to `FIRSTFRAME_TRACE`, for whatever the app does to a V4L2 node through
/// libc, libv4l2 or `syscall(2)`. Every event it writes carries the field `source: "preload"`.
///
/// The package's `CompilePreload` plugin compiles it, with its C companions (a fake V4L2 driver
/// for tests and the smallest V4L2 client), into bench's resource folder next to bench's binary:
/// `.build/<config>/FirstFrame_bench.resources/`.
package enum PreloadLibrary {
  /// The library's file name.
  package static let fileName = "libfirstframe-preload.so"
  /// The fake V4L2 driver's file name: preloaded after the library, it answers the streaming
  /// ioctls for paths under `FIRSTFRAME_FAKE_V4L2_PREFIX` (tests, where the kernel has no V4L2).
  package static let fakeDriverFileName = "libfirstframe-fake-v4l2.so"
  /// The smallest V4L2 client (open → first dequeued buffer, no display): the tests' app, the
  /// floor for device phases, and the harness that measures the library's cost.
  package static let clientFileName = "firstframe-v4l2-client"
  /// The folder, next to bench's binary, that SwiftPM copies the plugin's outputs into.
  package static let resourceFolderName = "FirstFrame_bench.resources"
  /// The value of the `source` field on every event the library writes, so that results can tell
  /// its events from the app's own (camera-app writes `device.*` and `app.main` too).
  package static let eventSource = "preload"

  /// The folder of the running executable (`/proc/self/exe`): bench's, or the test bundle's,
  /// which `swift build` puts in the same folder.
  package static func executableFolder() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard n > 0 else { return "." }
    let path = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// The path of `file` (the library unless said) built next to the executable in `folder`
  /// (this process's unless said): in bench's resource folder there, or in the folder itself.
  /// - Throws: `PreloadLibraryError` naming where it looked and how to build it; or, for a path
  ///   with a space or a colon, that `LD_PRELOAD` cannot name it.
  package static func locate(_ file: String = fileName, nextTo folder: String? = nil)
    throws(PreloadLibraryError)
    -> String
  {
    let folder = folder ?? executableFolder()
    let candidates = ["\(folder)/\(resourceFolderName)/\(file)", "\(folder)/\(file)"]
    guard let found = candidates.first(where: { access($0, R_OK) == 0 }) else {
      throw PreloadLibraryError(
        file: file,
        message:
          "\(file) is not built next to \(folder) (looked in \(candidates.joined(separator: " and "))): "
          + "run `swift build` in the FirstFrame package (its CompilePreload plugin compiles Preload/*.c "
          + "with the toolchain's clang), and keep \(resourceFolderName)/ next to the binary when copying it")
    }
    if file.hasSuffix(".so"), found.contains(" ") || found.contains(":") {
      throw PreloadLibraryError(
        file: file,
        message:
          "LD_PRELOAD cannot name \(found): the dynamic loader splits its value at spaces and colons; "
          + "build the package in a folder whose path has neither")
    }
    return found
  }

  /// `base` with the library loaded into the program and its events going to `trace`:
  /// `LD_PRELOAD` names `library` first (entries the environment already had stay, after it) and
  /// `FIRSTFRAME_TRACE` is `trace` (`fd:N` — the descriptor must be inherited — or a path).
  package static func environment(_ base: [String: String], library: String, trace: Endpoint) -> [String:
    String]
  {
    var environment = base
    let existing = base["LD_PRELOAD"].map { $0.split(whereSeparator: { $0 == " " || $0 == ":" }) } ?? []
    environment["LD_PRELOAD"] = ([library] + existing.map(String.init).filter { $0 != library }).joined(
      separator: ":")
    environment[LaunchEnvironment.Key.trace.rawValue] = trace.description
    return environment
  }
}

/// The preload library (or a companion) is not where bench looks for it.
package struct PreloadLibraryError: Error, CustomStringConvertible {
  /// The file that was looked for.
  package var file: String
  /// One line a person can act on: where bench looked and how to build it.
  package var message: String
  /// The one line.
  package var description: String { message }
}
