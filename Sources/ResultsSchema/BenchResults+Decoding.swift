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
