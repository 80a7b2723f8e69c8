import Foundation
import ResultsSchema
import SystemCalls

/// `Benchmarks/gates.json` (schema `firstframe.gates/1`): which phases the baseline gate checks
/// with which thresholds, and relative gates that hold on any machine.
///
/// ```
/// { "schema": "firstframe.gates/1",
///   "baseline": { "alpha": 0.01, "default_threshold_pct": 5,
///                 "phases": { "first_frame_observed": { "threshold_pct": 5 } },
///                 "optional_cells": ["deferred/loaded"],
///                 "failure_rate": { "max_rise_pct": 5 } },
///   "relative": [ { "name": "…", "phase": "first_frame_observed", "condition": "cold",
///                   "numerator": "eager", "denominator": "deferred", "min_ratio": 1.8,
///                   "optional": false } ] }
/// ```
/// Every field but `schema` is optional. Command-line options override the `baseline` section.
///
/// **Failed runs in the baseline gate.** A failed run ranks after every finished run in each
/// phase's samples. `baseline.failure_rate.max_rise_pct` (0…100, default 5) is the largest rise,
/// in percentage points, of a cell's share of failed runs over the baseline's that passes; a
/// larger rise fails the gate by itself, and so does a rise that a one-sided Fisher exact test
/// finds significant at `alpha` (`Gate.checkFailureRate`). 5 of 10 failed against 0 of 10 fails,
/// and so does 6 of 20 against 0 of 20.
///
/// **Decision rule of a relative gate** (`Gate.checkRelative`). r = median(numerator) /
/// median(denominator) of `phase` over the runs of the two cells of `condition`, a failed run
/// ranked after every finished one:
/// 1. a cell that was not run (not in the results) **fails** the gate — "not run" is not
///    "holds" — unless the gate says `"optional": true`, when it is `skipped` with the reason;
/// 2. a cell without one successful run of the phase fails;
/// 3. r not a number (0 ms over 0 ms, or both median runs failed), or +∞ over a 0 ms median,
///    fails (+∞ because the numerator's median run failed is judged by 4 and 5);
/// 4. r inside the bounds (`min_ratio` ≤ r, r ≤ `max_ratio`) passes;
/// 5. r outside: fails when the bootstrap 95 % CI of r lies entirely outside the bound, or when the
///    bootstrap refused (more than 1 % of its resamples had no finite ratio, so the CI is
///    unknown); otherwise `inconclusive`: more runs would decide.
///
/// The ratio, its interval and the p-value are ``Gate/statistic``'s (``MedianRatioStatistic``: the
/// ratio of medians, the percentile bootstrap, the Mann–Whitney test).
///
/// `bench gate` exits 1 on a `fail`, and on an `inconclusive` unless `--inconclusive pass`
/// (default `fail`: a check that could not show the build healthy does not let it land).
///
/// **Baseline gate** (`Gate.checkBaseline`): a cell on one side only, or a baseline cell without
/// samples of a gated phase, fails unless `baseline.optional_cells` (or `--optional-cells`)
/// names it (`config/condition`, `@camera` appended for a camera other than `synthetic`).
public struct GateDefinitions: Codable, Sendable, Hashable {
  /// The schema identifier this file must carry.
  public static let schemaIdentifier = "firstframe.gates/1"

  /// Always `firstframe.gates/1`.
  public var schema: String
  /// Free text for people.
  public var description: String?
  /// Settings of the gate against a committed baseline.
  public var baseline: BaselineSection?
  /// Ratios between configurations of the same run, checked without a baseline.
  public var relative: [RelativeGate]?

  /// Creates definitions.
  public init(
    schema: String = GateDefinitions.schemaIdentifier, description: String? = nil,
    baseline: BaselineSection? = nil, relative: [RelativeGate]? = nil
  ) {
    self.schema = schema
    self.description = description
    self.baseline = baseline
    self.relative = relative
  }

  /// The `baseline` section.
  public struct BaselineSection: Codable, Sendable, Hashable {
    /// Two-sided significance level a regression must reach (default 0.01).
    public var alpha: Double?
    /// Threshold for gated phases without their own, percent (default 5).
    public var default_threshold_pct: Double?
    /// Gated phases and their thresholds; `first_frame_observed` is always gated.
    public var phases: [String: PhaseGate]?
    /// Cells (`config/condition[@camera]`) whose absence from one side, or missing baseline
    /// samples, skips the check instead of failing it (default none: every cell must be compared).
    public var optional_cells: [String]?
    /// The failure-rate check's allowed rise (default 5 percentage points).
    public var failure_rate: FailureRateGate?
    /// Creates the section.
    public init(
      alpha: Double? = nil, default_threshold_pct: Double? = nil, phases: [String: PhaseGate]? = nil,
      optional_cells: [String]? = nil, failure_rate: FailureRateGate? = nil
    ) {
      self.alpha = alpha
      self.default_threshold_pct = default_threshold_pct
      self.phases = phases
      self.optional_cells = optional_cells
      self.failure_rate = failure_rate
    }
  }

  /// The `baseline.failure_rate` entry: how far a cell's share of failed runs may rise over the
  /// baseline's before the gate fails, whatever Fisher's test says.
  public struct FailureRateGate: Codable, Sendable, Hashable {
    /// The largest allowed rise, in percentage points of the runs, 0…100 (default 5: 1 of 20
    /// failed runs against a clean baseline passes, 2 of 20 or 1 of 10 fail).
    public var max_rise_pct: Double?
    /// Creates the entry.
    public init(max_rise_pct: Double? = nil) { self.max_rise_pct = max_rise_pct }
  }

  /// One gated phase.
  public struct PhaseGate: Codable, Sendable, Hashable {
    /// Slower by more than this many percent (and significantly) fails; default: the section's.
    public var threshold_pct: Double?
    /// Creates the entry.
    public init(threshold_pct: Double? = nil) { self.threshold_pct = threshold_pct }
  }

  /// A gate on the ratio median(numerator)/median(denominator) of one phase in one condition.
  public struct RelativeGate: Codable, Sendable, Hashable {
    /// For people, e.g. "deferred reaches the first frame ≥ 1.8× sooner than eager (cold)".
    public var name: String
    /// The phase, e.g. `first_frame_observed`.
    public var phase: String
    /// The condition, e.g. `cold`.
    public var condition: String
    /// The configuration on top of the ratio.
    public var numerator: String
    /// The configuration below.
    public var denominator: String
    /// The ratio must be at least this.
    public var min_ratio: Double?
    /// The ratio must be at most this.
    public var max_ratio: Double?
    /// Why the bound holds, for people.
    public var rationale: String?
    /// When true, a results file without the gate's cells skips the gate instead of failing it
    /// (default false: a gate whose cells were not run fails).
    public var optional: Bool?
    /// Creates a gate.
    public init(
      name: String, phase: String, condition: String, numerator: String, denominator: String,
      min_ratio: Double? = nil, max_ratio: Double? = nil, rationale: String? = nil, optional: Bool? = nil
    ) {
      self.optional = optional
      self.name = name
      self.phase = phase
      self.condition = condition
      self.numerator = numerator
      self.denominator = denominator
      self.min_ratio = min_ratio
      self.max_ratio = max_ratio
      self.rationale = rationale
    }
  }

  /// Reads and validates a gates file.
  /// - Throws: ``ResultsFileError`` (`invalidGates`), one line naming the file and the problem.
  public static func load(path: String) throws(ResultsFileError) -> GateDefinitions {
    let data: Data
    do throws(Errno) {
      data = Data(try FileSystem.contents(atPath: path, maxBytes: .max))
    } catch {
      throw ResultsFileError(
        reading: .missing, path: path,
        "\(path) does not exist or cannot be read (expected a \(schemaIdentifier) gates file)", cause: error)
    }
    return try decode(data, name: path)
  }

  /// Decodes and validates gate definitions from `data`; `path` names them in the error line.
  /// - Throws: ``ResultsFileError`` (`invalidGates`), one line naming the file and the problem.
  public static func decode(_ data: Data, name path: String) throws(ResultsFileError) -> GateDefinitions {
    let defs: GateDefinitions
    do {
      defs = try JSONDecoder().decode(GateDefinitions.self, from: data)
    } catch let error as DecodingError {
      if case .dataCorrupted = error, (try? JSONSerialization.jsonObject(with: data)) == nil {
        throw ResultsFileError(
          reading: .invalidGates, path: path, "\(path) is not a gates file: it is truncated or not valid JSON"
        )
      }
      throw ResultsFileError(
        reading: .invalidGates, path: path,
        "\(path) is not a valid \(schemaIdentifier) file: \(ResultsFile.describe(error))")
    } catch {
      throw ResultsFileError(
        reading: .invalidGates, path: path, "\(path) is not a valid \(schemaIdentifier) file: \(error)")
    }
    guard defs.schema == schemaIdentifier else {
      throw ResultsFileError(
        reading: .invalidGates, path: path,
        "\(path) has schema '\(defs.schema)'; expected \(schemaIdentifier)")
    }
    for gate in defs.relative ?? [] {
      guard gate.min_ratio != nil || gate.max_ratio != nil else {
        throw ResultsFileError(
          reading: .invalidGates, path: path,
          "\(path): relative gate '\(gate.name)' has neither min_ratio nor max_ratio")
      }
      for bound in [gate.min_ratio, gate.max_ratio].compactMap({ $0 }) where !(bound > 0 && bound.isFinite) {
        throw ResultsFileError(
          reading: .invalidGates, path: path,
          "\(path): relative gate '\(gate.name)' has a bound that is not a positive number")
      }
    }
    if let alpha = defs.baseline?.alpha, !(alpha > 0 && alpha < 1) {
      throw ResultsFileError(
        reading: .invalidGates, path: path, "\(path): baseline.alpha must be between 0 and 1, not \(alpha)")
    }
    for cell in defs.baseline?.optional_cells ?? [] where !isCellName(cell) {
      throw ResultsFileError(
        reading: .invalidGates, path: path,
        "\(path): baseline.optional_cells has '\(cell)'; a cell is config/condition[@camera], e.g. deferred/loaded"
      )
    }
    if let rise = defs.baseline?.failure_rate?.max_rise_pct, !(rise >= 0 && rise <= 100) {
      throw ResultsFileError(
        reading: .invalidGates, path: path,
        "\(path): baseline.failure_rate.max_rise_pct must be a number of percentage points from 0 to 100, not \(rise)"
      )
    }
    for (phase, gate) in defs.baseline?.phases ?? [:] {
      if let t = gate.threshold_pct, !(t >= 0 && t.isFinite) {
        throw ResultsFileError(
          reading: .invalidGates, path: path,
          "\(path): baseline.phases.\(phase).threshold_pct must be a number ≥ 0")
      }
    }
    return defs
  }

  /// True when `name` has the shape of a cell's name: `config/condition` or
  /// `config/condition@camera`, each part non-empty.
  public static func isCellName(_ name: String) -> Bool {
    let cellAndCamera = name.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
    let parts = cellAndCamera[0].split(separator: "/", omittingEmptySubsequences: false)
    return parts.count == 2 && parts.allSatisfy { !$0.isEmpty }
      && (cellAndCamera.count == 1 || !cellAndCamera[1].isEmpty)
  }
}
