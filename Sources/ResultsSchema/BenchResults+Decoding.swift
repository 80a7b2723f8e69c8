extension BenchResults {
  /// Which runs' timelines a reader keeps. The timelines are most of a results file (about three
  /// quarters of its bytes); comparisons and gates need none, the reports one run per cell.
  public enum TimelineSelection: Sendable, Hashable {
    /// Every run's timeline.
    case all
    /// No timeline (records keep their phases and counts).
    case none
    /// The runs that represent each cell in the reports (``MedianRun``), read in a second pass.
    case representative
    /// The timeline of run number `run` of the cell at index `cell` of `cells`, for each entry.
    case runs([Int: Int])
  }

  /// The decoder's `userInfo` key for the ``TimelineSelection`` (absent: `.all`).
  static let timelineSelectionKey = CodingUserInfoKey(rawValue: "firstframe.timelineSelection")!
}

extension BenchResults.RunRecord {
  /// Decodes a record; its timeline only when the decoder's ``BenchResults/TimelineSelection``
  /// wants it (the cell is found from the coding path: `cells[i].records[j]`).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    run = try c.decode(Int.self, forKey: .run)
    ok = try c.decode(Bool.self, forKey: .ok)
    error = try c.decodeIfPresent(String.self, forKey: .error)
    phases = try c.decode([String: Double].self, forKey: .phases)
    counts = try c.decode([String: Int].self, forKey: .counts)
    trace = try c.decodeIfPresent(String.self, forKey: .trace)
    wallMs = try c.decodeIfPresent(Double.self, forKey: .wallMs)
    detection = try c.decodeIfPresent(String.self, forKey: .detection)
    lowPower = try c.decodeIfPresent(BenchResults.LowPowerRecord.self, forKey: .lowPower)
    hot = try c.decodeIfPresent(BenchResults.HotRecord.self, forKey: .hot)
    threadStates = try c.decodeIfPresent(BenchResults.ThreadStatesRecord.self, forKey: .threadStates)
    devicePhases = try c.decodeIfPresent(BenchResults.DevicePhasesRecord.self, forKey: .devicePhases)
    cameraDaemon = try c.decodeIfPresent(BenchResults.CameraDaemonRecord.self, forKey: .cameraDaemon)
    let selection =
      decoder.userInfo[BenchResults.timelineSelectionKey] as? BenchResults.TimelineSelection ?? .all
    let wanted: Bool
    switch selection {
    case .all, .representative: wanted = true
    case .none: wanted = false
    case .runs(let runs):
      let path = decoder.codingPath
      let cell = path.count >= 2 && path[0].stringValue == "cells" ? path[1].intValue : nil
      wanted = cell.map { runs[$0] == run } ?? false
    }
    timeline = wanted ? try c.decodeIfPresent([BenchResults.TimelineEvent].self, forKey: .timeline) : nil
  }
}

extension BenchResults.ThreadStatesRecord {
  /// The name `display_server` had before issue 36 item 5, read from older results.
  enum FormerCodingKeys: String, CodingKey {
    case xServer = "x_server"
  }

  /// Decodes a record, `display_server` from its older name `x_server` where only that is
  /// there (results written before issue 36 item 5).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    method = try c.decode(String.self, forKey: .method)
    lostEvents = try c.decode(Int.self, forKey: .lostEvents)
    incomplete = try c.decode(Bool.self, forKey: .incomplete)
    errorBoundMs = try c.decodeIfPresent(Double.self, forKey: .errorBoundMs)
    events = try c.decode(Int.self, forKey: .events)
    traceBytes = try c.decodeIfPresent(Int.self, forKey: .traceBytes)
    bufferKBPerCPU = try c.decodeIfPresent(Int.self, forKey: .bufferKBPerCPU)
    main = try c.decode([String: BenchResults.MainThreadStates].self, forKey: .main)
    tree = try c.decode([String: BenchResults.TreeStates].self, forKey: .tree)
    runningAtFirstFrame = try c.decodeIfPresent(
      BenchResults.ThreadIdentity.self, forKey: .runningAtFirstFrame)
    eventsToFirstFrame = try c.decodeIfPresent(Int.self, forKey: .eventsToFirstFrame)
    benchMs = try c.decodeIfPresent(BenchResults.InstrumentTime.self, forKey: .benchMs)
    bench = try c.decodeIfPresent([String: BenchResults.TreeStates].self, forKey: .bench)
    displayServer =
      try c.decodeIfPresent([String: BenchResults.TreeStates].self, forKey: .displayServer)
      ?? decoder.container(keyedBy: FormerCodingKeys.self)
      .decodeIfPresent([String: BenchResults.TreeStates].self, forKey: .xServer)
    unseenSwitchIns = try c.decodeIfPresent(Int.self, forKey: .unseenSwitchIns)
    unseenMs = try c.decodeIfPresent(Double.self, forKey: .unseenMs)
    recoveredSwitchIns = try c.decodeIfPresent(Int.self, forKey: .recoveredSwitchIns)
  }
}
