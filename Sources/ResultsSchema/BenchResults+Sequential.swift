extension BenchResults {
  /// `bench ab --sequential` only (`settings.sequential`, in both `A/results.json` and
  /// `B/results.json`): the group-sequential design the comparison stopped by (issue 39) and,
  /// per cell, the verdict, the look it stopped at and the runs a side it used. Absent with
  /// `--fixed`, outside `bench ab` and in results from before it was recorded.
  public struct SequentialAB: Codable, Sendable, Hashable {
    /// The phase decided on: `first_frame_observed`.
    public var phase: String
    /// Interleaved pairs between looks (k).
    public var pairsPerLook: Int
    /// The most looks (K); at most `looks × pairsPerLook` runs a side.
    public var looks: Int
    /// The most runs a side: `looks × pairsPerLook`.
    public var maximumRunsPerSide: Int
    /// The Lan–DeMets spending function: `pocock` or `obrienFleming`.
    public var spending: String
    /// The family-wise false-alarm rate (SLOWER and FASTER together, in any gated cell) over all
    /// the looks.
    public var alpha: Double
    /// The cells that share ``alpha`` (the run's conditions × configurations); absent in results
    /// from before the split (each cell then spent all of ``alpha``).
    public var gatedCells: Int?
    /// The false-alarm rate each cell spends: ``alpha`` / ``gatedCells`` (Bonferroni); absent
    /// where ``gatedCells`` is.
    public var cellAlpha: Double?
    /// The error spent on SAME over all the looks.
    public var beta: Double
    /// The noise threshold, a fraction: SLOWER needs a ratio of medians beyond 1 + threshold.
    public var threshold: Double
    /// The change the design is powered for, a fraction: SAME says none that large either way.
    public var powerShift: Double
    /// The efficacy bound (one-sided z) at each look; null where none is spent.
    public var efficacyBounds: [Double?]
    /// The equivalence (SAME) bound at each look; null where none is spent.
    public var equivalenceBounds: [Double?]
    /// Each cell's decision, in the order the cells ran.
    public var cells: [Cell]

    /// One cell's sequential decision.
    public struct Cell: Codable, Sendable, Hashable {
      /// `config/condition`, as the gates name a cell: `deferred/warm`.
      public var cell: String
      /// `SLOWER`, `FASTER`, `SAME` or `UNKNOWN` (no bound crossed by the last look, or the
      /// runs stopped before it).
      public var verdict: String
      /// The look it stopped at, from 1.
      public var look: Int
      /// The counted runs a side it used.
      public var runsPerSide: Int
      /// The ratio of medians B/A at that look (failed runs ranked slowest); absent when a side
      /// has no median.
      public var ratio: Double?
      /// The standardised rank statistic of B against A at that look (positive: B slower).
      public var z: Double?

      /// Creates the record.
      public init(cell: String, verdict: String, look: Int, runsPerSide: Int, ratio: Double?, z: Double?) {
        self.cell = cell
        self.verdict = verdict
        self.look = look
        self.runsPerSide = runsPerSide
        self.ratio = ratio.flatMap { $0.isFinite ? $0 : nil }
        self.z = z.flatMap { $0.isFinite ? $0 : nil }
      }
    }

    /// Creates the record; infinite bounds (nothing spent at a look) are recorded as null.
    public init(
      phase: String, pairsPerLook: Int, looks: Int, spending: String, alpha: Double, gatedCells: Int? = nil,
      beta: Double, threshold: Double, powerShift: Double, efficacyBounds: [Double],
      equivalenceBounds: [Double], cells: [Cell]
    ) {
      self.phase = phase
      self.pairsPerLook = pairsPerLook
      self.looks = looks
      self.maximumRunsPerSide = pairsPerLook * looks
      self.spending = spending
      self.alpha = alpha
      self.gatedCells = gatedCells
      self.cellAlpha = gatedCells.map { alpha / Double(max(1, $0)) }
      self.beta = beta
      self.threshold = threshold
      self.powerShift = powerShift
      self.efficacyBounds = efficacyBounds.map { $0.isFinite ? $0 : nil }
      self.equivalenceBounds = equivalenceBounds.map { $0.isFinite ? $0 : nil }
      self.cells = cells
    }
  }
}
