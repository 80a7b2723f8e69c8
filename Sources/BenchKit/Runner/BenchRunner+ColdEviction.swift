import Foundation
import LaunchContract

extension BenchRunner {
  /// The files every cold run evicts, the first as much as the later ones: the program bench
  /// starts (camera-app, or an `--app` program's executable found in `PATH`) with everything
  /// the loader maps to start it (`ELFDependencies`: its interpreter and the closure of its
  /// needed libraries; a script's interpreter), and the cost profile the launch reads. Computed
  /// once per program from the files alone, never from what a run happened to map, so it does
  /// not grow from one run to the next.
  ///
  /// Libraries the app opens with `dlopen` are not in it; a cold run counts the files the app
  /// was seen to map outside this set in `mapped_not_evicted`.
  func coldEvictionFiles(config: LaunchConfiguration) -> Set<String> {
    guard let program = argv(config: config).first else { return [] }
    let environment = ProcessInfo.processInfo.environment
    return coldFiles.withLock { cache in
      if let known = cache[program] { return known }
      var files = Set<String>()
      if let path = ELFDependencies.searchPath(program, environment: environment) {
        files = ELFDependencies.closure(of: path, environment: environment)
      }
      if let profile = settings.profilePath {
        files.insert(URL(fileURLWithPath: profile).resolvingSymlinksInPath().path)
      }
      cache[program] = files
      return files
    }
  }

  /// How many files the app was seen to map (in this run or an earlier one) that `evicted` does
  /// not hold.
  func mappedNotEvicted(_ evicted: Set<String>) -> Int {
    learnedFiles.withLock { $0.subtracting(evicted).count }
  }
}
