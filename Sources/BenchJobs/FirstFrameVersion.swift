/// FirstFrame's version: the one place a release changes (docs/development.md, "Releasing"),
/// recorded in every results file (`tool.version`); a baseline from another version is refused
/// unless `--force`. A release tag `vX.Y.Z` must name this version (`scripts/check-version`, run
/// by CI). Stage three (the house in order, issue 24) is 0.3.0.
package enum FirstFrameVersion {
  /// The version string, `MAJOR.MINOR.PATCH`.
  package static let current = "0.3.0"
}
