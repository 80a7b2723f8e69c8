extension BenchResults {
  /// One configuration under one condition.
  public struct Cell: Codable, Sendable {
    /// The configuration: `deferred`, `eager`, `manual` or `preview-only`.
    public var config: String
    /// The condition: `cold`, `warm`, `relock` or `loaded`.
    public var condition: String
    /// The camera: `synthetic` or `v4l2:/dev/videoN`.
    public var camera: String
    /// Counted runs attempted (warm-up runs excluded).
    public var runs: Int
    /// How many of `runs` failed (`ok` false): they are in `records`, not in `phases`.
    public var failed: Int
    /// Loaded condition only: the CPU burner processes that ran (0 when they could not be
    /// started). Absent in the other conditions.
    public var burners: Int?
    /// Per phase name: the distribution over the ok runs, ms.
    public var phases: [String: PhaseSummary]
    /// Every counted run, in run order, failed ones included.
    public var records: [RunRecord]
    /// Phases (docs/conditions-and-phases.md, "Phases") that cannot occur in this cell, with the reason (for example
    /// `process_launch` in relock, where the app is not relaunched). Every phase is either in
    /// `phases` or here; one missing from both did not happen when it should have.
    public var notApplicable: [String: String]?
    /// How the probe found the first live frame of the cell's ok runs: a count per method
    /// (`board`: the light board's capture time; `change`: a run of changing scanouts at the
    /// camera's cadence, see `LiveFrameDetector`). A headline that rests on `change` alone is
    /// noted under the table.
    public var detection: [String: Int]?

    /// The uncounted run that primed this cell (`settings.primedCells`: `--warmup 0`, a warm or
    /// loaded cell whose configuration had not run yet), kept whole with its outcome and its
    /// device power-up; its numbers are in no distribution. Absent when the cell was not primed.
    public var priming: RunRecord? = nil

    enum CodingKeys: String, CodingKey {
      case config, condition, camera, runs, failed, burners, phases, records, detection, priming
      case notApplicable = "not_applicable"
    }

    /// Creates a cell.
    public init(
      config: String, condition: String, camera: String, runs: Int, failed: Int, burners: Int? = nil,
      phases: [String: PhaseSummary], records: [RunRecord], notApplicable: [String: String]? = nil
    ) {
      self.notApplicable = notApplicable
      self.config = config
      self.condition = condition
      self.camera = camera
      self.runs = runs
      self.failed = failed
      self.burners = burners
      self.phases = phases
      self.records = records
    }
  }
}
