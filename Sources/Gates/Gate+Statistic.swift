extension Gate {
  /// The statistic every gate and comparison decides by: the one place that chooses it (see
  /// ``GateStatistic``). To gate on another statistic, conform a type to ``GateStatistic`` and
  /// return it here.
  package static var statistic: any GateStatistic { MedianRatioStatistic() }
}
