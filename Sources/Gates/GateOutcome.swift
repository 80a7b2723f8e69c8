import Statistics

/// The verdict of one gate check (one phase of one cell against the baseline, or one relative gate).
public struct GateOutcome: Sendable, Hashable, Codable {
  /// Pass, fail, or why it was not decided.
  public enum Status: String, Sendable, Hashable, Codable {
    /// Holds.
    case pass
    /// Violated significantly: the gate's exit status is 1.
    case fail
    /// The point estimate violates the bound but the evidence does not settle it (a baseline
    /// check slower beyond its threshold without p < α; a relative gate whose 95 % CI still
    /// includes its bound): more runs would decide. It fails the gate under the default policy
    /// (`bench gate --inconclusive fail`) and is reported without failing under `pass`.
    case inconclusive
    /// Not evaluated because the user said it need not be (an optional cell or gate that is
    /// missing); reported with the reason. A required check that cannot be evaluated fails.
    case skipped
  }

  /// What a check is about; its raw value is `kind` in gate reports' JSON and names the JUnit
  /// suite (`gate.baseline`).
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// One phase, the failure rate or the quality of one cell against the baseline
    /// (`Gate.checkBaseline`).
    case baseline
    /// A relative gate between configurations of one run (`Gate.checkRelative`).
    case relative
    /// Whether the gated results are a whole benchmark (`Gate.checkComplete`: `complete FILE`).
    case input
    /// A cell's runs, in the JUnit report of a results file without gates: any failed run fails it.
    case runs
  }

  /// What the check is about.
  public var kind: Kind
  /// For people and JUnit, e.g. `first_frame_observed deferred/cold`.
  public var name: String
  /// The verdict.
  public var status: Status
  /// One line with the numbers (medians, ratio, CI, p) or the reason it was skipped.
  public var message: String
  /// The phase checked.
  public var phase: String
  /// The baseline's (or denominator's) median, ms (``Gate/statistic``'s location of the sample).
  public var referenceMedianMs: Double?
  /// The results' (or numerator's) median, ms (``Gate/statistic``'s location of the sample).
  public var medianMs: Double?
  /// median / reference median.
  public var ratio: Double?
  /// Bootstrap 95 % CI of the ratio.
  public var ci95: [Double]?
  /// Two-sided Mann–Whitney p-value.
  public var pValue: Double?
  /// The bound: 1 + threshold for baseline gates, min/max ratio for relative ones.
  public var limit: Double?

  /// Creates an outcome.
  public init(
    kind: Kind, name: String, status: Status, message: String, phase: String,
    referenceMedianMs: Double? = nil, medianMs: Double? = nil, ratio: Double? = nil, ci95: [Double]? = nil,
    pValue: Double? = nil, limit: Double? = nil
  ) {
    self.kind = kind
    self.name = name
    self.status = status
    self.message = message
    self.phase = phase
    self.referenceMedianMs = referenceMedianMs
    self.medianMs = medianMs
    self.ratio = ratio
    self.ci95 = ci95
    self.pValue = pValue
    self.limit = limit
  }

  /// `FAIL first_frame_observed deferred/cold: …`.
  public var line: String { "\(status.rawValue.uppercased()) \(name): \(message)" }
}

/// Everything a gate run found: outcomes, power advice, warnings.
public struct GateReport: Sendable, Hashable, Codable {
  /// One per check, in order.
  public var outcomes: [GateOutcome]
  /// Per gated phase and cell: the smallest regression these runs can catch.
  public var advice: [PowerAdvice]
  /// Lines for people (too few runs, forced foreign baseline, …).
  public var warnings: [String]
  /// The baseline gate's false alarms and power as `Benchmarks/gate-power` measured them
  /// (`GatePower.Report.quote`), or why they are not quoted; nil when no baseline was checked.
  public var measuredPower: String? = nil
  /// What an inconclusive outcome counts as (`bench gate --inconclusive`, default `fail`):
  /// `passed`, `failures`, the verdict line, JUnit and Markdown all decide through it.
  public var inconclusive: Gate.InconclusivePolicy = .fail

  /// Creates a report whose inconclusive outcomes count as `inconclusive` says.
  public init(
    outcomes: [GateOutcome] = [], advice: [PowerAdvice] = [], warnings: [String] = [],
    inconclusive: Gate.InconclusivePolicy = .fail
  ) {
    self.outcomes = outcomes
    self.advice = advice
    self.warnings = warnings
    self.inconclusive = inconclusive
  }

  /// True when no outcome fails the gate under the report's policy (exit status 0): no `fail`,
  /// and no `inconclusive` unless the policy is `pass`.
  public var passed: Bool { failures.isEmpty }
  /// The outcomes that fail the gate under the report's policy, in order.
  public var failures: [GateOutcome] { outcomes.filter(fails) }

  /// True when `outcome` fails the gate under the report's policy.
  public func fails(_ outcome: GateOutcome) -> Bool { Gate.fails(outcome.status, inconclusive: inconclusive) }

  /// The verdict line `bench gate` ends with: `gate: passed (12 checks, 1 skipped, 0
  /// inconclusive)`, or `gate: FAILED, 2 checks: first_frame_observed deferred/warm
  /// (inconclusive), failure_rate eager/cold`, each failing check named, an inconclusive one so
  /// marked.
  public var verdictLine: String {
    let failed = failures
    guard !failed.isEmpty else {
      let skipped = outcomes.filter { $0.status == .skipped }.count
      let inconclusiveCount = outcomes.filter { $0.status == .inconclusive }.count
      return "gate: passed (\(outcomes.count) checks, \(skipped) skipped, \(inconclusiveCount) inconclusive)"
    }
    let names = failed.map { $0.status == .inconclusive ? "\($0.name) (inconclusive)" : $0.name }
    return
      "gate: FAILED, \(failed.count) check\(failed.count == 1 ? "" : "s"): \(names.joined(separator: ", "))"
  }

  /// Appends another report's contents.
  public mutating func merge(_ other: GateReport) {
    outcomes += other.outcomes
    advice += other.advice
    warnings += other.warnings
    if let measured = other.measuredPower { measuredPower = measured }
  }
}
