#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import LaunchContract
import Subprocess
import SystemCalls

/// Finds the `camera-app` executable, building it when needed, so `swift run bench` works on a
/// fresh clone with no other step.
///
/// camera-app is built in release mode into its own scratch folder (`.build/camera-app`) the way
/// launch stage one — binary loading, what `process_launch` measures — is cheapest
/// (`Benchmarks/launch-floor` measures each step, docs/tools.md "Launch stage one"):
/// - a statically linked Swift runtime (`--static-swift-stdlib`): a dynamically linked one
///   loads a dozen libraries before `main`;
/// - no Foundation in anything it links, and libv4l2 loaded only when a V4L2 camera is opened;
/// - a position-dependent executable (`-Xlinker -no-pie`): the loader has none of its tens of
///   thousands of relative relocations to apply, and their pages stay clean (the price: the
///   executable's own code is not placed at a random address);
/// - the C++ runtime the Swift runtime needs linked in too (`libstdc++.a`, `-static-libgcc`): the
///   static Swift runtime still names `libstdc++.so.6` and `libgcc_s.so.1`, whose loading,
///   symbol binding and initialisation took about half of a static Swift hello's spawn → `main`
///   here. The linker takes `libstdc++.a` from ``staticCxxFolder`` (a link to the archive the
///   toolchain's clang names) ahead of the shared library; without the archive that folder stays
///   empty and the shared library is linked as before.
/// `FIRSTFRAME_CAMERA_APP` names a prebuilt binary instead; `bench build-app` builds it and
/// prints its path (for scripts).
package enum CameraAppLocator {
  /// The `swift build` arguments that build camera-app as bench runs it, after
  /// `swift build --package-path ROOT`; `Benchmarks/app-launch` and `scripts/vivid-integration`
  /// use the same (a test checks).
  package static let buildArguments = [
    "-c", "release", "--product", "camera-app", "--scratch-path", ".build/camera-app",
    "--static-swift-stdlib",
    "-Xlinker", "-no-pie",
    "-Xlinker", "-L.build/camera-app/static-cxx", "-Xswiftc", "-Xclang-linker", "-Xswiftc", "-static-libgcc",
  ]

  /// The folder, under camera-app's scratch folder, that holds only a link to the C++ runtime's
  /// static archive, so that the linker's search for `-lstdc++` finds `libstdc++.a` there before
  /// any shared `libstdc++.so`.
  package static let staticCxxFolder = "static-cxx"

  /// Links `scratch/static-cxx/libstdc++.a` to the archive the toolchain's clang would link
  /// (`clang -print-file-name=libstdc++.a`, the GCC installation the Swift driver uses), or
  /// leaves the folder without it when there is none; returns the archive's path, or nil.
  ///
  /// Tests, benches and scripts build camera-app at the same time, so a link that still leads to
  /// a readable archive is kept (clang is asked once, not at every bench start), and a link is
  /// only ever replaced by an atomic rename, never removed: a `swift build` linking meanwhile
  /// would take the shared runtime instead, and SwiftPM would keep that binary.
  @discardableResult package static func prepareStaticCxx(scratch: String, swift: String) -> String? {
    let folder = scratch + "/" + staticCxxFolder
    // A folder that cannot be made leaves no link: the archive is then not found (nil), as intended.
    try? FileSystem.createDirectory(atPath: folder, mode: 0o777)
    let link = folder + "/libstdc++.a"
    if let archive = FileSystem.realPath(link), archive != link, access(archive, R_OK) == 0 { return archive }
    let clang = (swift as NSString).deletingLastPathComponent + "/clang"
    let unique = "\(getpid())-\(UUID().uuidString)"
    let answer = folder + "/clang-answer-" + unique
    defer { unlink(answer) }
    guard FileSystem.isExecutable(atPath: clang),
      let child = try? ChildProcess.spawn(
        argv: [clang, "-print-file-name=libstdc++.a"], environment: ProcessInfo.processInfo.environment,
        logPath: answer),
      child.wait(timeout: 30) ?? child.terminate() == .exited(0),
      let printed = try? FileSystem.contents(atPath: answer, maxBytes: 4096),
      case let archive = String(decoding: printed, as: UTF8.self).trimmingCharacters(
        in: .whitespacesAndNewlines),
      archive.hasPrefix("/"), access(archive, R_OK) == 0
    else { return nil }
    guard (try? FileSystem.replaceSymbolicLink(atPath: link, pointingTo: archive)) != nil else { return nil }
    return archive
  }

  /// The package root this bench belongs to: walk up from the executable, then the working directory.
  package static func packageRoot() -> String? {
    var candidates: [String] = []
    // A start that cannot be known (no /proc, a removed working directory) is skipped.
    if let exe = try? FileSystem.symbolicLinkDestination(atPath: "/proc/self/exe") {
      candidates.append((exe as NSString).deletingLastPathComponent)
    }
    if let current = try? FileSystem.currentDirectory() { candidates.append(current) }
    for start in candidates {
      var dir = start
      while dir != "/" && !dir.isEmpty {
        let manifest = dir + "/Package.swift"
        if let text = FileSystem.readText(atPath: manifest),
          text.contains("name: \"FirstFrame\"")
        {
          return dir
        }
        dir = (dir as NSString).deletingLastPathComponent
      }
    }
    return nil
  }

  /// The path of an up-to-date camera-app. `log` receives progress lines (building…). While
  /// `swift build` runs, `interrupted` is checked every few milliseconds: when it turns true the
  /// build (with every compiler job it started) is stopped and `RunnerError.Code.interrupted` thrown.
  package static func locate(interrupted: () -> Bool = { false }, log: (String) -> Void) throws(RunnerError)
    -> String
  {
    if let given = LaunchEnvironment.value(of: .cameraApp) {
      guard FileSystem.isExecutable(atPath: given) else {
        throw RunnerError(
          .appNotFound, "\(LaunchEnvironment.Key.cameraApp.rawValue)=\(given) is not an executable file")
      }
      return given
    }
    guard let root = packageRoot() else {
      // Without /proc/self/exe there is no sibling to look for: the error below says what to do.
      if let exe = try? FileSystem.symbolicLinkDestination(atPath: "/proc/self/exe") {
        let sibling = (exe as NSString).deletingLastPathComponent + "/camera-app"
        if FileSystem.isExecutable(atPath: sibling) { return sibling }
      }
      throw RunnerError(
        .appNotFound,
        "cannot find camera-app: run bench from the FirstFrame package, or set FIRSTFRAME_CAMERA_APP")
    }
    let scratch = root + "/.build/camera-app"
    let binary = scratch + "/release/camera-app"
    // SwiftPM decides what is stale (a no-op build takes well under a second); the file-time
    // check only decides whether to tell the user that a real build is coming.
    if !isUpToDate(binary: binary, root: root) {
      log("building camera-app (release, static Swift and C++ runtimes) — once per source change…")
    }
    let logPath = root + "/.build/camera-app-build.log"
    return try build(package: root, scratch: scratch, logPath: logPath, interrupted: interrupted)
  }

  /// Builds camera-app from the package at `package` into the scratch folder `scratch`:
  /// `swift build --package-path PACKAGE` with ``buildArguments`` (the scratch folder replaced), its output in
  /// `logPath`. Stopped (with every compiler job it started) when `interrupted` turns true, and set to
  /// die with bench (``BuildGuard``). `swift` defaults to the one on `PATH`. Returns the binary.
  /// - Throws: `RunnerError` `.interrupted`, or `.buildFailed` with the log's last line.
  package static func build(
    package: String, scratch: String, logPath: String, swift: String? = nil, interrupted: () -> Bool
  ) throws(RunnerError) -> String {
    let binary = scratch + "/release/camera-app"
    try? FileSystem.createDirectory(atPath: (logPath as NSString).deletingLastPathComponent, mode: 0o777)
    unlink(logPath)
    // The log is made here, so that a folder bench cannot write (a checkout another user owns)
    // is said as such, not as a spawn that failed.
    do {
      close(try FileSystem.createFile(atPath: logPath))
    } catch {
      throw RunnerError(
        .buildFailed,
        "cannot build camera-app: cannot write the build log \(logPath): \(error.message) (build it as a user who can "
          + "write \((logPath as NSString).deletingLastPathComponent), or set \(LaunchEnvironment.Key.cameraApp.rawValue))"
      )
    }
    let swift = swift ?? findSwift()
    prepareStaticCxx(scratch: scratch, swift: swift)
    let arguments = buildArguments.map { $0.replacingOccurrences(of: ".build/camera-app", with: scratch) }
    let child = try ChildProcess.spawn(
      argv: BuildGuard.wrap([swift, "build", "--package-path", package] + arguments),
      environment: ProcessInfo.processInfo.environment, logPath: logPath)
    var status: ChildProcess.Termination?
    while status == nil {
      if interrupted() {
        ProcessTree.kill(child.pid)
        child.terminate(grace: 1)
        throw RunnerError(.interrupted, "interrupted while building camera-app")
      }
      status = child.wait(timeout: 0.05)
    }
    guard status == .exited(0), FileSystem.isExecutable(atPath: binary) else {
      let tail =
        FileSystem.readText(atPath: logPath)?.split(separator: "\n").suffix(1).joined()
        ?? ""
      throw RunnerError(.buildFailed, "building camera-app failed (\(status!)); see \(logPath): \(tail)")
    }
    return binary
  }

  /// The first `swift` on `PATH`, else the toolchain's.
  package static func findSwift() -> String {
    // (Each folder as a String: `split(…) + [literal]` was inferred as arrays of characters, so
    // no folder on PATH ever matched.)
    let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
    for dir in dirs + ["/opt/swift/usr/bin"] {
      let candidate = dir + "/swift"
      if FileSystem.isExecutable(atPath: candidate) { return candidate }
    }
    return "/opt/swift/usr/bin/swift"
  }

  /// True when `binary` is newer than Package.swift and every file under Sources/ (a hint only).
  static func isUpToDate(binary: String, root: String) -> Bool {
    guard let built = modificationTime(binary) else { return false }
    if let m = modificationTime(root + "/Package.swift"), m > built { return false }
    guard let entries = try? FileSystem.walk(atPath: root + "/Sources") else { return false }
    for rel in entries {
      if let m = modificationTime(root + "/Sources/" + rel), m > built { return false }
    }
    return true
  }

  static func modificationTime(_ path: String) -> Double? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    return Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9
  }
}
