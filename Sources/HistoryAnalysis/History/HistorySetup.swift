import Foundation

/// What a cell of a benchmark measured beyond its machine, camera, condition, configuration and
/// phase, read from the settings results.json records: the cost profile (its contents hash), the
/// display path, the app command, the capture outputs, how thread states were recorded, whether
/// the runner tapped, and the condition's own settings (the `loaded` condition's load, the
/// `low-power` cap, the `hot` soak). Two
/// cells that differ in any of these measured different things, so they are two series; an
/// injected delay (`injectDelayMs`) is not among them: it stands for a code change and stays in
/// the series, as a change point.
package struct HistorySetup: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// One thing that changes what is measured, and its value.
  package struct Field: Sendable, Hashable {
    /// Its name, as `show` prints it: `profile`, `display`, `app`, `outputs`, `thread-states`,
    /// `tap`, and for their conditions `load`, `low-power`, `soak`.
    package var name: String
    /// Its value (`-` where results.json records none).
    package var value: String

    /// Creates a field.
    package init(_ name: String, _ value: String) {
      self.name = name
      self.value = value
    }
  }

  /// The fields: ``names`` in order, then the condition's own (one cell's series all have the
  /// same names).
  package var fields: [Field]

  /// No fields: the setup of a key whose setup is not yet known.
  package static let unknown = HistorySetup(fields: [])

  /// The fields' names, in order.
  package static let names = ["profile", "display", "app", "outputs", "thread-states", "tap"]

  /// Creates a setup from its fields.
  package init(fields: [Field]) { self.fields = fields }

  /// What of a benchmark's settings a setup is made of, read once a benchmark: each value as
  /// ``HistorySetup`` shows it, `-` where the settings lack it.
  package struct Settings: Sendable {
    /// `profileHash`, else `name:` and `profileName`.
    var profile: String
    /// `display`, `shm` where absent (results from before the X11 path).
    var display: String
    /// `app`, else `camera-app`.
    var app: String
    /// `appConfigs`: configuration → command.
    var appConfigs: [String: String]
    /// `outputs`, joined by commas.
    var outputs: String
    /// `threadStates`.
    var threadStates: String
    /// `tap`: `on` or `off`.
    var tap: String
    /// `load`: its kind × burners.
    var load: String
    /// `lowPower`.
    var lowPower: String
    /// `soakSeconds`, with ` s`.
    var soak: String

    /// The values in `json` (the settings the history stores; anything else reads as empty).
    package init(json: String) {
      let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] ?? [:]
      func text(_ key: String) -> String? { object[key] as? String }
      profile = text("profileHash") ?? text("profileName").map { "name:" + $0 } ?? "-"
      display = text("display") ?? "shm"
      app = text("app") ?? "camera-app"
      appConfigs = object["appConfigs"] as? [String: String] ?? [:]
      outputs = (object["outputs"] as? [String]).map { $0.joined(separator: ",") } ?? "-"
      threadStates = text("threadStates") ?? "-"
      tap = (object["tap"] as? Bool).map { $0 ? "on" : "off" } ?? "-"
      let loadObject = object["load"] as? [String: Any]
      load = (loadObject?["kind"] as? String).map { "\($0) × \(loadObject?["burners"] as? Int ?? 0)" } ?? "-"
      lowPower = text("lowPower") ?? "-"
      soak =
        (object["soakSeconds"] as? Double).map { ($0 == $0.rounded() ? String(Int($0)) : String($0)) + " s" }
        ?? "-"
    }
  }

  /// The setup of the cell `condition/config` in a benchmark whose settings are `settings` (the
  /// JSON the history stores), as ``init(_:condition:config:)`` makes it.
  package init(settings: String, condition: String, config: String) {
    self.init(Settings(json: settings), condition: condition, config: config)
  }

  /// The setup of the cell `condition/config` of a benchmark with `settings`: profile, display,
  /// app (the configuration's `--app-config` command, else `settings.app`, else `camera-app`),
  /// outputs, thread states and tap; a `loaded` cell adds `load`, a `low-power` cell
  /// `low-power`, a `hot` cell `soak`.
  package init(_ settings: Settings, condition: String, config: String) {
    fields = [
      Field("profile", settings.profile), Field("display", settings.display),
      Field("app", settings.appConfigs[config] ?? settings.app), Field("outputs", settings.outputs),
      Field("thread-states", settings.threadStates), Field("tap", settings.tap),
    ]
    switch condition {
    case "loaded": fields.append(Field("load", settings.load))
    case "low-power": fields.append(Field("low-power", settings.lowPower))
    case "hot": fields.append(Field("soak", settings.soak))
    default: break
    }
  }

  /// Every field as `name value`, separated by `, `.
  package var description: String { Self.text(fields) }

  /// The fields of each of `setups` that are not the same in all of them, as `name value`
  /// separated by `, ` ("" for every setup when they are all alike or there is one).
  package static func distinguishing(_ setups: [HistorySetup]) -> [HistorySetup: String] {
    let distinct = Array(Set(setups))
    guard distinct.count > 1 else { return Dictionary(uniqueKeysWithValues: distinct.map { ($0, "") }) }
    let count = distinct.map(\.fields.count).max() ?? 0
    let differing = Set(
      (0..<count).filter { i in
        Set(distinct.map { $0.fields.indices.contains(i) ? $0.fields[i] : nil }).count > 1
      })
    return Dictionary(
      uniqueKeysWithValues: distinct.map { setup in
        (setup, text(setup.fields.indices.filter(differing.contains).map { setup.fields[$0] }))
      })
  }

  /// Ordered by the fields' values, in order.
  package static func < (l: HistorySetup, r: HistorySetup) -> Bool {
    l.fields.map(\.value).lexicographicallyPrecedes(r.fields.map(\.value))
  }

  /// `fields` as `name value`, separated by `, `.
  private static func text(_ fields: [Field]) -> String {
    fields.map { "\($0.name) \($0.value)" }.joined(separator: ", ")
  }
}
