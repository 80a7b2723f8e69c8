import CameraServices
import HostConditions
import LaunchContract
import ResultsSchema

/// A camera served by a daemon (`--camera pipewire:PATH`, issue 40): each run's part.
extension BenchRunner {
  /// Before the spawn: the daemon started for a cold run, kept for the others, its node
  /// suspended (the device closed). Returns the run's daemon record (nil without a daemon), and
  /// the failed run's record: `conditionRun`'s failure (the condition could not be prepared: no
  /// daemon is readied), or the daemon's when it is not in the state the condition asks for.
  func prepareCameraDaemon(number: Int, condition: LaunchCondition, after conditionRun: any ConditionRunState)
    -> (BenchResults.CameraDaemonRecord?, BenchResults.RunRecord?)
  {
    if let conditionFailure = conditionRun.failure {
      return (nil, .init(run: number, ok: false, error: conditionFailure, phases: [:], counts: [:]))
    }
    guard let daemonRun = cameraService?.prepareRun(fresh: condition == .cold) else { return (nil, nil) }
    guard !daemonRun.verified else { return (daemonRun, nil) }
    var record = BenchResults.RunRecord(
      run: number, ok: false, error: daemonRun.reason ?? "the camera's daemon was not ready", phases: [:],
      counts: [:])
    record.cameraDaemon = daemonRun
    return (daemonRun, record)
  }

  /// After the run: its daemon record, and a failure when the daemon died during the run.
  func finishCameraDaemon(
    _ daemonRun: BenchResults.CameraDaemonRecord?, into run: inout BenchResults.RunRecord
  ) {
    guard let daemonRun else { return }
    run.cameraDaemon = daemonRun
    if let gone = cameraService?.checkAfterRun(daemonRun) {
      run.ok = false
      run.error = [run.error, gone].compactMap { $0 }.joined(separator: "; ")
    }
  }
}
