import LaunchContract
import Testing

/// The trust boundary's table: who may write each event, and the control commands' one spelling.
@Suite struct EventOwnershipTests {
  @Test("the runner owns launch.*, relock.* and feed.*; the probe display.*; the app everything else")
  func ownersByPrefix() {
    #expect(EventName.launchSpawn.owner == .runner)
    #expect(EventOwner(eventName: "relock.unlock") == .runner)
    #expect(EventOwner(eventName: "feed.first_board") == .runner)
    #expect(EventOwner(eventName: "display.first_live_frame") == .probe)
    #expect(EventOwner(eventName: "display.something_later") == .probe)
    #expect(EventOwner(eventName: "session.start_running") == .app)
    #expect(EventOwner(eventName: "launchspawn") == .app)
    #expect(EventOwner(eventName: "") == .app)
  }

  @Test("every event name of the protocol is spelled once and has the owner its prefix says")
  func namesAreUnique() {
    let names = EventName.allCases.map(\.rawValue)
    #expect(Set(names).count == names.count)
    for name in EventName.allCases {
      #expect(name.owner == EventOwner(eventName: name.rawValue))
      #expect(!name.rawValue.contains(" "), "\(name.rawValue)")
    }
  }

  @Test("a control line names its command whatever spaces surround it, and nothing else does")
  func controlLines() {
    for command in ControlCommand.allCases {
      #expect(ControlCommand(line: command.line.dropLast()) == command)
      #expect(ControlCommand(line: " \t" + command.rawValue + "\r") == command)
    }
    #expect(ControlCommand(line: "tap tap") == nil)
    #expect(ControlCommand(line: "") == nil)
    #expect(ControlCommand(line: "TAP") == nil)
  }
}
