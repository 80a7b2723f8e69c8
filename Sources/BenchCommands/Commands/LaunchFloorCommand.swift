#if canImport(Glibc)
  import Glibc
#endif
import AppBuilds
import BenchKit
import Foundation
import SystemCalls
import HostConditions
import LaunchContract

/// `bench launch-floor`: camera-app's launch stage one (spawn → `app.main`) next to reference
/// programs, warm and cold, measured as bench measures `process_launch` (``LaunchFloor``).
/// `Benchmarks/launch-floor` builds the references (a C hello, dynamic and static, and static
/// Swift hellos) and runs this.
package enum LaunchFloorCommand: Command {
  /// The command line, checked.
  package struct Options: Sendable {
    /// Timed launches per program and condition.
    package var launches: Int
    /// `warm`, `cold` or both.
    package var conditions: [LaunchCondition]
    /// The reference programs (`NAME=PATH`), in table order.
    package var references: [LaunchFloor.Program]
    /// `--app-user`: who every program runs as when bench is root; nil: the default (``AppUser``).
    package var appUser: String?
  }

  static let launches = Option(
    "--launches", "N", "timed launches per program and condition", default: 100,
    parser: .integer(in: 1...100_000))
  static let conditions = Option(
    "--conditions", "LIST", "warm, cold or both", default: [LaunchCondition.warm, .cold],
    parser: .list(of: [LaunchCondition.warm, .cold]))

  /// The option table (parser and `--help`).
  package static let spec = CommandLineSpec(
    command: "bench launch-floor",
    synopsis: "[--launches N] [--conditions warm,cold] [--app-user USER] [NAME=PATH …]",
    summary: """
      Launch stage one against its floor: spawn → app.main of camera-app (built as bench builds it,
      or FIRSTFRAME_CAMERA_APP) and of each reference program NAME=PATH, warm and cold (the program's
      files evicted from the page cache as bench's cold condition does), interleaved, with the spawn
      and clock bench uses. A reference program writes {"ts":<CLOCK_MONOTONIC ns>,"name":"app.main",
      "kind":"event","pid":<pid>} to FIRSTFRAME_TRACE (fd:3) first thing in main and then waits to be
      stopped (Benchmarks/tools/hello.c). As root, every program runs as the app user, as bench's
      runs run the app. Prints medians, p90s, camera-app's ratios to each reference, its binary
      size and the files it maps while its synthetic camera runs.
      """,
    options: [launches, conditions, RunCommand.appUser],
    epilogue: "exit status: 0 every launch reached app.main, 1 some did not, 2 usage error")

  /// Checks the command line: the numbers, the conditions and each `NAME=PATH` (an executable).
  package static func options(from parsed: ParsedOptions) throws(UsageError) -> Options {
    var references: [LaunchFloor.Program] = []
    for argument in parsed.positional {
      let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
        throw UsageError("a reference program is NAME=PATH, not '\(argument)'")
      }
      guard parts[0] != "camera-app", !references.contains(where: { $0.name == parts[0] }) else {
        throw UsageError("\(parts[0]): a program name may appear once (camera-app is always measured)")
      }
      references.append(LaunchFloor.Program(name: parts[0], argv: [parts[1]]))
    }
    return Options(
      launches: try parsed.value(launches), conditions: try parsed.value(conditions), references: references,
      appUser: try parsed.value(RunCommand.appUser))
  }

  /// Locates (or builds) camera-app, runs the launches and writes the report to `output`;
  /// progress goes to `errors`. Returns 0 when every launch reached `app.main`, 1 otherwise.
  /// - Throws: `UsageError` for a reference program that is not an executable file.
  package static func execute(
    _ options: Options, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) throws(UsageError) -> Int32 {
    // The reference programs, checked here rather than in `options(from:)`: parsing looks at
    // no file.
    for program in options.references where access(program.argv[0], X_OK) != 0 {
      throw UsageError("\(program.name)=\(program.argv[0]): not an executable file")
    }
    let interrupted = InterruptFlag.install()
    let app: String
    do {
      app = try CameraAppLocator.locate { errors.write("bench launch-floor: \($0)\n") }
    } catch {
      errors.write("bench launch-floor: \(error.message)\n")
      return 1
    }
    // Every program runs as the app user, as bench's runs run the app (issue 41 item 3).
    let user: AppUser
    switch AppUser.resolve(
      given: options.appUser, cameraNode: nil, environment: ProcessInfo.processInfo.environment)
    {
    case .success(let resolved): user = resolved
    case .failure(let error): throw UsageError(error.description)
    }
    for program in options.references.map(\.argv[0]) + [app] {
      if let why = user.cannotRun(program) { throw UsageError(why) }
    }
    // The camera's and camera-app's state: a private folder, its scratch the app user's.
    guard let folder = try? AppScratchFolder(prefix: "firstframe-launch-floor-", user: user) else {
      errors.write(
        "bench launch-floor: cannot make the apps' state folder in \(PrivateDirectory.temporaryRoot()), or hand it to \(user.identity.name)\n"
      )
      return 1
    }
    defer { folder.remove() }
    let state = folder.scratch
    var environment = ProcessInfo.processInfo.environment
    for key in LaunchEnvironment.launchKeys { environment[key.rawValue] = nil }
    environment[LaunchEnvironment.Key.syntheticState.rawValue] = state + "/camera"
    environment[LaunchEnvironment.Key.appState.rawValue] = state + "/app"
    let cameraApp = LaunchFloor.Program(
      name: "camera-app", argv: [app, "--config", LaunchConfiguration.deferred.rawValue],
      inspectAfter: .previewFirstPresent)
    let floor = LaunchFloor(
      launches: options.launches, conditions: options.conditions, environment: environment,
      user: user.dropsPrivileges ? user.identity : nil)
    errors.write(
      "bench launch-floor: \(options.references.count + 1) programs × \(options.conditions.count) conditions"
        + " × \(options.launches) launches as \(user.identity.name) (cache eviction: \(CacheEvictor.method))\n"
    )
    let reports = floor.run(
      options.references + [cameraApp], progress: { errors.write("bench launch-floor: \($0)\n") },
      interrupted: { interrupted.isSet })
    output.write(LaunchFloorReport(reports: reports, conditions: options.conditions).text)
    let failures = reports.flatMap { report in report.failures.map { "\(report.program.name): \($0)" } }
    for failure in failures.prefix(20) { errors.write("bench launch-floor: \(failure)\n") }
    return failures.isEmpty && !interrupted.isSet ? 0 : 1
  }
}
