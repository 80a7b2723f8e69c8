import BenchCommands
import BenchKit
import Testing

/// Parsing a command line looks at nothing on the machine; what the options name is checked when
/// the pipeline prepares them, with the messages it always had.
@Suite struct CommandParsingTests {
  @Test("bench: a missing camera node and an unwritable --out are parsed as given, and refused by prepare")
  func runParsingTouchesNothing() throws {
    let options = try #require(
      try RunCommand.parse(["--camera", "v4l2:/dev/ff-no-such-video", "--out", "/proc/ff-results"]))
    #expect(options.settings.camera.devicePath == "/dev/ff-no-such-video")
    #expect(options.out == "/proc/ff-results" && options.settings.outDir.isEmpty)
    #expect(throws: UsageError.self) { try options.prepare() }
  }

  @Test("bench: a profile and an app that do not exist are only names until prepare")
  func namesUntilPrepared() throws {
    let profile = try #require(try RunCommand.parse(["--profile", "/ff-no-such-profile.json"]))
    #expect(profile.profile == "/ff-no-such-profile.json" && profile.settings.profileName == nil)
    #expect(throws: UsageError.self) { try profile.prepare() }
    let app = try #require(try RunCommand.parse(["--app", "ff-no-such-program --fast"]))
    #expect(app.app == "ff-no-such-program --fast" && app.settings.appCommand == nil)
    #expect(throws: UsageError.self) { try app.prepare() }
  }

  @Test("bench ab: the revisions are resolved by prepare, not by parsing")
  func abParsingTouchesNothing() throws {
    let options = try #require(try ABCommand.parse(["--repo", "/ff-no-such-repo", "REV_X", "REV_Y"]))
    #expect(options.revisions.a == "REV_X" && options.revisions.b == "REV_Y")
    #expect(options.repo == "/ff-no-such-repo")
    #expect(throws: UsageError.self) { try options.prepare() }
  }
}
