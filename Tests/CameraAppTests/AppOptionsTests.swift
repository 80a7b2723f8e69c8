import CaptureKit
import CommandLineKit
import LaunchContract
import Testing

@testable import CameraApp

@Suite struct AppOptionsTests {
  @Test("defaults are deferred, preview+photo+movie, synthetic camera")
  func defaults() throws {
    let o = try #require(try CameraAppCommand.parse([]))
    #expect(o.configuration == .deferred)
    #expect(o.outputs == [.preview, .photo, .movie])
    #expect(o.camera == .synthetic)
    #expect(o.responsiveCapture)
  }

  @Test("every configuration and output spelled as in the docs parses")
  func spellings() throws {
    for config in ["deferred", "eager", "manual", "preview-only"] {
      #expect(try CameraAppCommand.parse(["--config", config])?.configuration.rawValue == config)
    }
    let o = try #require(
      try CameraAppCommand.parse([
        "--outputs", "photo,analysis", "--camera", "v4l2:/dev/video3", "--no-cover",
      ]))
    #expect(o.outputs == [.preview, .photo, .analysis])
    #expect(o.camera == .v4l2(path: "/dev/video3"))
    #expect(o.noCover)
  }

  @Test("bad input is one clear line naming what is wrong")
  func badInput() {
    func message(_ args: [String]) -> String? {
      do {
        _ = try CameraAppCommand.parse(args)
        return nil
      } catch {
        return error.message
      }
    }
    #expect(message(["--bogus"])?.contains("unknown option '--bogus'") == true)
    #expect(message(["--config", "fast"])?.contains("unknown configuration 'fast'") == true)
    #expect(message(["--outputs", "preview,hologram"])?.contains("unknown output 'hologram'") == true)
    #expect(message(["--camera", "usb"])?.contains("unknown camera 'usb'") == true)
    #expect(message(["--duration", "soon"])?.contains("--duration") == true)
    #expect(message(["--duration"])?.contains("needs a value") == true)
    #expect(message(["--duration", "1e12"]) == "--duration must be at most 86400, not 1e12")
    #expect(message(["--duration", "0"]) == "--duration must be greater than 0, not 0")
    #expect(message(["extra"]) == "unexpected argument 'extra' (see camera-app --help)")
    for args in [["--bogus"], ["--config", "fast"], ["--outputs", "x"]] {
      #expect(message(args)?.contains("\n") == false)
    }
  }

  @Test("help text lists every option in the table, and --help parses to no options")
  func help() throws {
    let help = CameraAppCommand.help
    for option in CameraAppCommand.spec.options { #expect(help.contains(option.name)) }
    #expect(try CameraAppCommand.parse(["--config", "eager", "--help"]) == nil)
  }

  @Test("--duration takes a number of seconds up to a day")
  func duration() throws {
    #expect(try CameraAppCommand.parse([])?.durationSeconds == nil)
    #expect(try CameraAppCommand.parse(["--duration", "2.5"])?.durationSeconds == 2.5)
    #expect(try CameraAppCommand.parse(["--duration", "86400"])?.durationSeconds == 86400)
  }
}
