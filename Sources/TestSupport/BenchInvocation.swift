import Foundation
import LaunchContract
import ResultsSchema
import SystemCalls
import Testing

/// The tests' one way to run the built `bench` executable as a user does: started as a
/// ``TestProcess`` (output in files, every wait bounded and stretched by ``TestTime/scale``, a
/// bench still running at the deadline stopped), with the built camera-app as its default app.
/// With it: the small apps tests write (``writeScript(_:named:in:)``) and the checks every cell of
/// a benchmark's results must pass (``expectEveryPhaseMeasuredOrExplained(_:runs:)``). Temporary
/// folders come from ``temporaryFolder(_:)``; other programs run as a ``TestProcess``.
package enum BenchInvocation {
  /// What a finished `bench` left behind.
  package struct Outcome: Sendable {
    /// Its exit status (a signal's number when it was killed).
    package var status: Int32
    /// Everything it wrote to stdout.
    package var output: String
    /// Everything it wrote to stderr (progress lines, notes, errors).
    package var errors: String
  }

  /// The environment bench runs in: this process's (unless `inheriting` is false), with
  /// `FIRSTFRAME_CAMERA_APP` set to the built camera-app (so no test builds its own), then
  /// `changes` applied (a nil value removes the variable).
  package static func environment(_ changes: [String: String?] = [:], inheriting: Bool = true) -> [String:
    String]
  {
    var environment = inheriting ? ProcessInfo.processInfo.environment : [:]
    if inheriting { environment[LaunchEnvironment.Key.cameraApp.rawValue] = BuiltProducts.path("camera-app") }
    for (key, value) in changes { environment[key] = value }
    return environment
  }

  /// Starts `bench arguments…` in ``environment(_:inheriting:)`` (from `directory`, when given)
  /// and returns it running; wait for it with ``TestProcess/waitUntilExit(timeout:)``, signal it
  /// with ``TestProcess/signal(_:)``, read how it ended in ``TestProcess/termination``.
  /// `executable` replaces the built bench: another build of it, or a program that execs bench
  /// (`/bin/sh -c 'ulimit -f 64; exec bench …'`). `standardError` gives bench's standard error
  /// as a descriptor instead of a file (see ``TestProcess/init(executable:arguments:environment:workingDirectory:input:standardError:)``).
  package static func start(
    _ arguments: [String], environment changes: [String: String?] = [:], inheriting: Bool = true,
    in directory: String? = nil, executable: String? = nil, standardError: FileHandle? = nil
  ) throws -> TestProcess {
    let bench = TestProcess(
      executable: executable ?? BuiltProducts.path("bench"), arguments: arguments,
      environment: environment(changes, inheriting: inheriting), workingDirectory: directory,
      standardError: standardError)
    try bench.run()
    return bench
  }

  /// Runs `bench arguments…` (see ``start(_:environment:inheriting:in:)``) to its end, at most
  /// `timeout` (stretched by ``TestTime/scale``; then it is stopped). Returns nil when it did not
  /// finish in time.
  package static func run(
    _ arguments: [String], environment changes: [String: String?] = [:], inheriting: Bool = true,
    in directory: String? = nil, timeout: Duration = .seconds(120)
  ) throws -> Outcome? {
    let bench = try start(arguments, environment: changes, inheriting: inheriting, in: directory)
    guard bench.waitUntilExit(timeout: timeout) else { return nil }
    return Outcome(
      status: bench.terminationStatus, output: String(decoding: bench.standardOutputData, as: UTF8.self),
      errors: bench.standardErrorText)
  }

  /// Writes `script` (starting with `#!`) to `dir/name`, executable; returns its path.
  package static func writeScript(_ script: String, named name: String, in dir: String) throws -> String {
    let path = dir + "/" + name
    // Written close-on-exec: a process another thread starts meanwhile must not keep it open
    // for writing, or executing it fails with ETXTBSY ("Text file busy").
    try FileSystem.replaceAtomically(Array(script.utf8), atPath: path, mode: 0o755)
    return path
  }

  /// The check every cell of a benchmark that should fully succeed passes: each phase is
  /// measured or explained (not applicable, with the reason), and all `runs` runs succeeded.
  /// A failure names the cell, and the phase or each run's error.
  package static func expectEveryPhaseMeasuredOrExplained(
    _ results: BenchResults, runs: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for cell in results.cells {
      for phase in PhaseName.all {
        #expect(
          cell.phases[phase] != nil || cell.notApplicable?[phase] != nil,
          "\(cell.condition)/\(cell.config): \(phase) neither measured nor explained",
          sourceLocation: sourceLocation)
      }
      #expect(
        cell.runs == runs && cell.failed == 0,
        "\(cell.condition)/\(cell.config): \(cell.records.map { $0.error ?? "ok" })",
        sourceLocation: sourceLocation)
    }
  }
}
