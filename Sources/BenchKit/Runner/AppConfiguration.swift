import CommandLineKit
import LaunchContract
import Subprocess

/// `--app-config NAME=COMMAND`: a configuration named by the user that runs a program we did not
/// write (a GStreamer pipeline, ffplay, a GTK or Qt app), so that its cells sit next to other apps'
/// and camera-app's in one table, and `bench compare` matches them by name across results files.
///
/// The command is split into argv without a shell (``CommandSplitter``); per run, `{device}` is
/// replaced with the V4L2 camera's node (`--camera v4l2:PATH`), `{node}` with the PipeWire camera
/// node's name (`--camera pipewire:PATH`), `{config}` with the name,
/// `{camera}` and `{outputs}` as for `--app`. Such an app is not expected to speak the trace
/// protocol or to read the control pipe: a run ends at its first live frame, and relock is not
/// applicable (it cannot be told to lock).
///
/// `--headless-app-config NAME=COMMAND` names a program that shows nothing (a minimal capture
/// client, a pipeline into `fakesink`): its run ends at its first dequeued buffer, the
/// `device.first_buffer` event the preload library writes, under the same conditions as the
/// apps with a window (the feeder, the probe, the display server all running), so its device
/// phases are a floor measured beside theirs.
package struct AppConfiguration: Sendable, Hashable {
  /// The name: the cell's configuration in results, the table and `bench compare`.
  package var name: String
  /// The command as given (recorded in results).
  package var command: String
  /// The command's words; the first is resolved to the executable's path by ``RunCommand``.
  package var argv: [String]
  /// `--headless-app-config`: the program shows no window; a run ends at its first buffer.
  package var headless: Bool

  /// The longest name, in characters.
  package static let maxNameLength = 40
  /// `{device}`: replaced with the V4L2 camera's device node.
  package static let devicePlaceholder = "{device}"
  /// `{node}`: replaced with the PipeWire camera node's name (`--camera pipewire:PATH`), what a
  /// PipeWire client targets (`pipewiresrc target-object={node}`).
  package static let nodePlaceholder = "{node}"

  /// Creates a configuration from its parts (already checked).
  package init(name: String, command: String, argv: [String], headless: Bool = false) {
    self.name = name
    self.command = command
    self.argv = argv
    self.headless = headless
  }

  /// The option that names such an app: `--app-config` or `--headless-app-config`.
  package var option: String { Self.option(headless: headless) }

  /// The option that names an app with a window, or a headless one.
  static func option(headless: Bool) -> String { headless ? "--headless-app-config" : "--app-config" }

  /// Parses `NAME=COMMAND`: the name is 1 to 40 letters, digits, `.`, `_`, `+` or `-`, starting
  /// with a letter or digit; the command is split as ``CommandSplitter`` says. `headless`: given
  /// with `--headless-app-config` (error lines name that option).
  /// - Throws: `UsageError`, one line (the text is quoted with its control characters escaped).
  package init(parsing text: String, headless: Bool = false) throws(UsageError) {
    let option = Self.option(headless: headless)
    guard let eq = text.firstIndex(of: "=") else {
      throw UsageError("\(option) \(CommandSplitter.quoted(text)): wants NAME=COMMAND")
    }
    let name = String(text[..<eq])
    let command = String(text[text.index(after: eq)...])
    try Self.validate(name: name, option: option)
    let argv = try CommandSplitter.split(command, for: "\(option) \(name)")
    self.init(name: name, command: command, argv: argv, headless: headless)
  }

  /// Checks a configuration name.
  /// - Throws: `UsageError` saying what is wrong with it.
  package static func validate(name: String, option: String = "--app-config") throws(UsageError) {
    guard !name.isEmpty else { throw UsageError("\(option): empty name (wants NAME=COMMAND)") }
    let allowed = name.unicodeScalars.allSatisfy {
      ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
        || "._+-".unicodeScalars.contains($0)
    }
    guard allowed, let first = name.unicodeScalars.first, first != ".", first != "-", first != "+",
      first != "_"
    else {
      throw UsageError(
        "\(option) \(CommandSplitter.quoted(name)): a name is letters, digits, '.', '_', '+' and '-', starting with a letter or digit"
      )
    }
    guard name.count <= maxNameLength else {
      throw UsageError("\(option) \(name): a name has at most \(maxNameLength) characters")
    }
    if LaunchConfiguration(rawValue: name) != nil {
      throw UsageError(
        "\(option) \(name): that is a built-in configuration's name (\(LaunchConfiguration.allCases.map(\.rawValue).joined(separator: ", "))); choose another"
      )
    }
  }

  /// Checks a list of configurations: no name twice.
  /// - Throws: `UsageError` naming the first duplicate.
  package static func validate(_ configurations: [AppConfiguration]) throws(UsageError) {
    var seen = Set<String>()
    for c in configurations where !seen.insert(c.name).inserted {
      throw UsageError("\(c.option) \(c.name): the name is given twice")
    }
  }

  /// Whether the command uses `{device}`.
  package var usesDevice: Bool { argv.contains { $0.contains(Self.devicePlaceholder) } }

  /// Whether the command uses `{node}`.
  package var usesNode: Bool { argv.contains { $0.contains(Self.nodePlaceholder) } }

  /// Why `argv`'s placeholders do not fit `camera` (one line, after `what`: the option and name),
  /// or nil: `{device}` needs a V4L2 node the app opens itself, `{node}` a camera served through
  /// PipeWire.
  package static func placeholderProblem(_ argv: [String], camera: CameraSelection, what: String) -> String? {
    let device = argv.contains { $0.contains(devicePlaceholder) }
    let node = argv.contains { $0.contains(nodePlaceholder) }
    if device && camera.isServedByPipeWire {
      return
        "\(what): {device} is the V4L2 node an app opens itself; with --camera \(camera) the app takes the camera from PipeWire: use {node}, the PipeWire node's name"
    }
    if device && camera.devicePath == nil {
      return "\(what): {device} needs a V4L2 camera (--camera v4l2:/dev/videoN)"
    }
    if node && !camera.isServedByPipeWire {
      return "\(what): {node} needs a camera served through PipeWire (--camera pipewire:/dev/videoN)"
    }
    return nil
  }

  /// The argv of one run: the placeholders replaced.
  package func argv(camera: CameraSelection, outputs: [CaptureOutputKind]) -> [String] {
    argv.map {
      $0.replacingOccurrences(of: Self.devicePlaceholder, with: camera.devicePath ?? Self.devicePlaceholder)
        .replacingOccurrences(
          of: Self.nodePlaceholder,
          with: camera.isServedByPipeWire ? CameraSelection.pipeWireNodeName : Self.nodePlaceholder
        )
        .replacingOccurrences(of: "{config}", with: name)
        .replacingOccurrences(of: "{outputs}", with: outputs.map(\.rawValue).joined(separator: ","))
        .replacingOccurrences(of: "{camera}", with: camera.description)
    }
  }
}
