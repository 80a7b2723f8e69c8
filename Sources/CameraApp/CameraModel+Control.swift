import LaunchContract

extension CameraModel {
  /// Reads control commands from `endpoint` (`FIRSTFRAME_CONTROL`) on their own thread, so the
  /// main thread never waits on them: each command is handled as it arrives, an unknown line is
  /// reported on stderr and ignored, and end of input (the runner is gone) quits.
  /// - Throws: `AppError` — usage when the endpoint cannot be opened, camera when the reader
  ///   thread cannot start.
  func listen(to endpoint: Endpoint) throws(AppError) {
    do {
      let channel = try ControlChannel(endpoint: endpoint)
      try channel.start(
        handle: { @Sendable [self] command in handle(command) },
        unknown: { @Sendable line in StandardError.writeLine("ignoring unknown command '\(line.prefix(80))'")
        },
        ended: { @Sendable [self] in quit() })
    } catch let error as LaunchContractError {
      throw .usage(error.message)
    } catch {
      throw .camera("cannot start the control reader: \(error)")
    }
  }
}
