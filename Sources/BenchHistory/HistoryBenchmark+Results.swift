import Foundation
import HistoryAnalysis
import ResultsSchema

extension HistoryBenchmark {
  /// The benchmark a results file holds, for recording: `commit` and `branch` as given,
  /// `time` as given or else `settings.startedAt`, the machine's fingerprint from `host`
  /// (`HistoryMachine`), the settings as JSON, and every counted run (timelines left out).
  package init(results: BenchResults, commit: String, branch: String = "", time: String? = nil) {
    self.init(
      contentHash: Self.contentHash(of: results), commit: commit, branch: branch,
      time: time ?? HistoryTime.normalize(results.settings.startedAt) ?? results.settings.startedAt,
      machine: HistoryMachine.fingerprint(results.host), hostname: results.host.hostname,
      toolVersion: results.tool.version, settings: HistoryJSON.sortedKeys(results.settings) ?? "{}",
      cells: results.cells.map { cell in
        HistoryCell(
          condition: cell.condition, config: cell.config, camera: cell.camera, runs: cell.runs,
          failed: cell.failed,
          records: cell.records.map {
            HistoryRun(run: $0.run, ok: $0.ok, error: $0.error, phases: $0.phases, counts: $0.counts)
          })
      })
  }

  /// The results' identity for idempotent recording: `fnv1a64:` and 16 hex digits over the
  /// canonical JSON (keys sorted) of the tool, host, settings and cells with the runs' timelines
  /// left out — the same benchmark read from a snapshot's rewrite, a copy kept as a baseline or a
  /// file saved with other whitespace hashes the same.
  package static func contentHash(of results: BenchResults) -> String {
    var content = results
    content.baseline = nil
    for c in content.cells.indices {
      for r in content.cells[c].records.indices { content.cells[c].records[r].timeline = nil }
      content.cells[c].priming?.timeline = nil
    }
    return ContentHash.fnv1a64(HistoryJSON.sortedKeys(content).map { Array($0.utf8) } ?? [])
  }
}

/// A machine's identity in the history: series are kept per fingerprint, never mixed.
package enum HistoryMachine {
  /// `fnv1a64:` and 16 hex digits over the machine id (`/etc/machine-id`, else the host name
  /// when results.json has none), the CPU model and the CPU count — what the machine is, not
  /// what it ran this time (the kernel and the governor may change between nights and are kept
  /// in the settings and host record instead).
  package static func fingerprint(_ host: BenchResults.HostInfo) -> String {
    let identity = [host.machineId ?? "host:" + host.hostname, host.cpuModel ?? "", String(host.cpus)]
    return ContentHash.fnv1a64(Array(identity.joined(separator: "\n").utf8))
  }

}

/// The history's canonical JSON.
package enum HistoryJSON {
  /// `value` as JSON with sorted keys, or nil when it cannot be encoded.
  package static func sortedKeys(_ value: some Encodable) -> String? {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
  }
}
