import LaunchContract

extension ValueParser where Value == DisplayPath {
  /// `--display` of `bench` and `bench calibrate`: `shm`, `x11` or `x11:NAME`.
  static var displayPath: ValueParser<DisplayPath> {
    .converting(describe: { $0.description }, DisplayPath.init(parsing:))
  }
}
