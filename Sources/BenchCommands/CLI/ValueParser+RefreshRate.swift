extension ValueParser where Value == Double {
  /// `--refresh-hz` of `bench` and `bench calibrate`: 1…1000 Hz, the rates the compositor
  /// accepts (`Compositor.init` refuses any other).
  static var refreshRate: ValueParser<Double> { .number(in: NumberRange(atLeast: 1, atMost: 1000)) }
}
