import CaptureKit
import CommandLineKit
import LaunchContract
import Testing

@testable import CameraApp

@Suite struct AppOptionsTests {
  @Test("defaults are deferred, preview+photo+movie, synthetic camera")
  func defaults() throws {
    let o = try AppOptions.parse([])
    #expect(o.configuration == .deferred)
    #expect(o.outputs == [.preview, .photo, .movie])
    #expect(o.camera == .synthetic)
    #expect(o.responsiveCapture)
  }

  @Test("every configuration and output spelled as in DESIGN.md parses")
  func spellings() throws {
    for config in ["deferred", "eager", "manual", "preview-only"] {
      #expect(try AppOptions.parse(["--config", config]).configuration.rawValue == config)
    }
    let o = try AppOptions.parse([
      "--outputs", "photo,analysis", "--camera", "v4l2:/dev/video3", "--no-cover",
    ])
    #expect(o.outputs == [.preview, .photo, .analysis])
    #expect(o.camera == .v4l2(path: "/dev/video3"))
    #expect(o.noCover)
  }

  @Test("bad input is one clear line naming what is wrong")
  func badInput() {
    func message(_ args: [String]) -> String? {
      do {
        _ = try AppOptions.parse(args)
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
    for args in [["--bogus"], ["--config", "fast"], ["--outputs", "x"]] {
      #expect(message(args)?.contains("\n") == false)
    }
  }

  @Test("help text lists every option in the table")
  func help() {
    let help = AppOptions.spec.help
    for option in AppOptions.spec.options { #expect(help.contains(option.name)) }
  }
}
