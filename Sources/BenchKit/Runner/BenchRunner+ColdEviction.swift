import Foundation
import HostConditions
import SystemCalls

extension BenchRunner {
  /// The files a cold run of `config` evicts. Every counted cold run of a program evicts the same
  /// set, the first as much as the later ones: the program bench starts (camera-app, an `--app`
  /// or `--app-config` executable, resolved when the command was parsed) with what the loader
  /// maps to start it (``AppFootprint``: its libraries; a script's interpreter and its
  /// libraries), the cost profile the launch reads, and every file the benchmark's apps were
  /// seen to map by their first frames before that first counted cold run (libraries opened
  /// with `dlopen`: GStreamer's plugins, ffmpeg's codecs — learned in warm-up runs and earlier
  /// cells). The set is fixed at the first counted run (`counted`), so it does not grow from one
  /// counted run to the next; an uncounted run evicts what is known so far.
  ///
  /// A cold run counts the files its app had mapped by its first frame outside this set in
  /// `mapped_not_evicted`.
  func coldEvictionFiles(config: BenchConfiguration, counted: Bool) -> Set<String> {
    guard let program = argv(config: config).first else { return [] }
    if let fixed = coldFiles.withLock({ $0[program] }) { return fixed }
    var files = AppFootprint.files(ofExecutable: program)
    if let profile = settings.profilePath, let real = FileSystem.realPath(profile) { files.insert(real) }
    files.formUnion(learnedFiles.withLock { $0 })
    if counted { coldFiles.withLock { $0[program] = $0[program] ?? files } }
    return files
  }
}
