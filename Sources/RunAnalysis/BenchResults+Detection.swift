import ResultsSchema

extension BenchResults.Cell {
  /// Counts of `RunRecord.detection` over the ok runs of `records` (nil when none has one).
  public static func detectionCounts(_ records: [BenchResults.RunRecord]) -> [String: Int]? {
    var counts: [String: Int] = [:]
    for r in records where r.ok {
      if let method = r.detection { counts[method, default: 0] += 1 }
    }
    return counts.isEmpty ? nil : counts
  }

  /// The ok runs whose first frame came from change detection, and the ok runs with a method.
  package var changeDetected: (change: Int, of: Int) {
    let counts = detection ?? Self.detectionCounts(records) ?? [:]
    return (counts["change"] ?? 0, counts.values.reduce(0, +))
  }
}

extension BenchResults {
  /// Warnings for people about cells whose headline rests on change detection (no light board
  /// read): which cells, and what that method can and cannot tell. Empty when every first frame
  /// was read from the board.
  public var detectionNotes: [String] {
    var only: [String] = []
    var partly: [String] = []
    for cell in orderedCells {
      let (change, total) = cell.changeDetected
      guard change > 0 else { continue }
      let name = "\(cell.condition)/\(cell.config)"
      if change == total { only.append(name) } else { partly.append("\(name) (\(change) of \(total) runs)") }
    }
    var notes: [String] = []
    let why =
      "the first frame is the first of a run of changing scanouts at the camera's cadence, not a capture time"
      + " read from the light board: a still splash or cover is not taken for it, but a still scene after a"
      + " relock cannot be told from the frozen frame (docs/conditions-and-phases.md, \"Change detection\")"
    if !only.isEmpty {
      notes.append("change detection only in \(only.joined(separator: ", ")): \(why)")
    }
    if !partly.isEmpty {
      notes.append(
        "change detection in some runs of \(partly.joined(separator: ", ")): the board did not read")
    }
    return notes
  }
}
