import LaunchContract

/// One configuration a benchmark alternates (A B A B …) within each condition: a built-in
/// configuration of camera-app (or of the `--app` program, told which one by `{config}`), or a
/// user-named third-party app (`--app-config NAME=COMMAND`). Its ``name`` is the cell's
/// configuration in results, the table and `bench compare`.
package enum BenchConfiguration: Sendable, Hashable, CustomStringConvertible {
  /// `--configs deferred,eager,…`: camera-app, or the `--app` program, in that configuration.
  case builtIn(LaunchConfiguration)
  /// `--app-config NAME=COMMAND`: a program we did not write.
  case app(AppConfiguration)

  /// The cell's configuration name: `deferred`, or the user's name.
  package var name: String {
    switch self {
    case .builtIn(let c): c.rawValue
    case .app(let a): a.name
    }
  }

  /// The name.
  package var description: String { name }

  /// The built-in configuration, or nil for a third-party app.
  package var launchConfiguration: LaunchConfiguration? {
    if case .builtIn(let c) = self { c } else { nil }
  }

  /// The third-party app, or nil for a built-in configuration.
  package var appConfiguration: AppConfiguration? {
    if case .app(let a) = self { a } else { nil }
  }
}
