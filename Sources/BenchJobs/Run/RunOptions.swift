import BenchKit
import HostConditions
import LaunchContract

/// `bench`'s command line, parsed without touching the machine (no file, device or program is
/// looked at): the settings it states and the names it gives. ``prepare()`` checks and opens
/// what they name.
package struct RunOptions: Sendable {
  /// What to run, as the command line states it (no profile, app or results folder yet).
  package var settings: RunSettings
  /// What goes to stdout at the end.
  package var format: RunFormat
  /// No progress output.
  package var quiet: Bool
  /// Write into a results folder that is not empty, replacing bench's earlier files there.
  package var overwrite = false
  /// `--profile`, as given.
  package var profile: String?
  /// `--app`, as given.
  package var app: String?
  /// `--feed-light-board`, as given.
  package var feedLightBoard: String?
  /// `--app-config` and `--headless-app-config`, their programs not yet looked for.
  package var appConfigs: [AppConfiguration] = []
  /// Whether `--configs` was given (without it, `--app-config` runs only the apps).
  package var configsGiven = false
  /// `--out`, as given.
  package var out: String?

  /// Options with these values.
  package init(
    settings: RunSettings, format: RunFormat, quiet: Bool, overwrite: Bool = false, profile: String? = nil,
    app: String? = nil, feedLightBoard: String? = nil, appConfigs: [AppConfiguration] = [],
    configsGiven: Bool = false, out: String? = nil
  ) {
    self.settings = settings
    self.format = format
    self.quiet = quiet
    self.overwrite = overwrite
    self.profile = profile
    self.app = app
    self.feedLightBoard = feedLightBoard
    self.appConfigs = appConfigs
    self.configsGiven = configsGiven
    self.out = out
  }
}
