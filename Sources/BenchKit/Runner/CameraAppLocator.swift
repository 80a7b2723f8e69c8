#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import LaunchContract

/// Finds the `camera-app` executable, building it when needed, so `swift run bench` works on a
/// fresh clone with no other step.
///
/// camera-app is built in release mode with a statically linked Swift runtime and Foundation
/// (`--static-swift-stdlib`) into its own scratch folder (`.build/camera-app`): a dynamically
/// linked Swift+Foundation binary spends ~7 ms (warm) to ~100 ms (cold) in the loader before
/// `main`, a static one ~2 ms, and launch stage one — binary loading — is what `process_launch`
/// measures. `FIRSTFRAME_CAMERA_APP` names a prebuilt binary instead.
public enum CameraAppLocator {
  /// The package root this bench belongs to: walk up from the executable, then the working directory.
  public static func packageRoot() -> String? {
    var candidates: [String] = []
    if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      candidates.append((exe as NSString).deletingLastPathComponent)
    }
    candidates.append(FileManager.default.currentDirectoryPath)
    for start in candidates {
      var dir = start
      while dir != "/" && !dir.isEmpty {
        let manifest = dir + "/Package.swift"
        if let text = try? String(contentsOfFile: manifest, encoding: .utf8),
          text.contains("name: \"FirstFrame\"")
        {
          return dir
        }
        dir = (dir as NSString).deletingLastPathComponent
      }
    }
    return nil
  }

  /// The path of an up-to-date camera-app. `log` receives progress lines (building…).
  public static func locate(log: (String) -> Void) throws(RunnerError) -> String {
    if let given = LaunchEnvironment.value(of: .cameraApp) {
      guard access(given, X_OK) == 0 else {
        throw RunnerError(
          .appNotFound, "\(LaunchEnvironment.Key.cameraApp.rawValue)=\(given) is not an executable file")
      }
      return given
    }
    guard let root = packageRoot() else {
      if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        let sibling = (exe as NSString).deletingLastPathComponent + "/camera-app"
        if access(sibling, X_OK) == 0 { return sibling }
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
      log("building camera-app (release, static Swift runtime) — once per source change…")
    }
    let logPath = root + "/.build/camera-app-build.log"
    return try build(package: root, scratch: scratch, logPath: logPath, interrupted: { false })
  }

  /// Builds camera-app from the package at `package` into the scratch folder `scratch`:
  /// `swift build -c release --product camera-app --static-swift-stdlib`, its output in
  /// `logPath`. Stopped (with every compiler job it started) when `interrupted` turns true, and set to
  /// die with bench (``BuildGuard``). `swift` defaults to the one on `PATH`. Returns the binary.
  /// - Throws: `RunnerError` `.interrupted`, or `.buildFailed` with the log's last line.
  static func build(
    package: String, scratch: String, logPath: String, swift: String? = nil, interrupted: () -> Bool
  ) throws(RunnerError) -> String {
    let binary = scratch + "/release/camera-app"
    try? FileManager.default.createDirectory(
      atPath: (logPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    unlink(logPath)
    let child = try ChildProcess.spawn(
      argv: BuildGuard.wrap([
        swift ?? findSwift(), "build", "--package-path", package, "-c", "release", "--product", "camera-app",
        "--scratch-path", scratch, "--static-swift-stdlib",
      ]),
      environment: ProcessInfo.processInfo.environment, logPath: logPath)
    var status: ChildProcess.Termination?
    while status == nil {
      if interrupted() {
        ProcessTree.kill(child.pid)
        child.terminate(grace: 2)
        throw RunnerError(.interrupted, "interrupted while building camera-app")
      }
      status = child.wait(timeout: 0.2)
    }
    guard status == .exited(0), access(binary, X_OK) == 0 else {
      let tail =
        (try? String(contentsOfFile: logPath, encoding: .utf8))?.split(separator: "\n").suffix(1).joined()
        ?? ""
      throw RunnerError(.buildFailed, "building camera-app failed (\(status!)); see \(logPath): \(tail)")
    }
    return binary
  }

  static func findSwift() -> String {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") + [
      "/opt/swift/usr/bin"
    ] {
      let candidate = "\(dir)/swift"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return "/opt/swift/usr/bin/swift"
  }

  /// True when `binary` is newer than Package.swift and every file under Sources/ (a hint only).
  static func isUpToDate(binary: String, root: String) -> Bool {
    guard let built = modificationTime(binary) else { return false }
    if let m = modificationTime(root + "/Package.swift"), m > built { return false }
    guard let walker = FileManager.default.enumerator(atPath: root + "/Sources") else { return false }
    while let rel = walker.nextObject() as? String {
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
