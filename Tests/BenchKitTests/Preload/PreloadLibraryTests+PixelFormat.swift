import BenchKit
import Foundation
import PhaseTrace
import Testing

extension PreloadLibraryTests {
  @Test(
    "device.format's end names the capture format the last successful S_FMT set (the client's YUYV), so a table can say what each app streams; a refused S_FMT names none"
  )
  func pixelFormat() throws {
    let harness = try PreloadHarness()
    defer { harness.removeFolder() }
    let run = try harness.run([], preload: true)
    #expect(run.status == 0, "\(run.errors)")
    let end = try #require(run.events.first { $0.name == "device.format" && $0.kind == .end })
    #expect(end.fields["pixelformat"] == "YUYV", "\(end.fields)")
    let refused = try harness.run([], preload: true, fake: false)
    let refusedEnd = try #require(refused.events.first { $0.name == "device.format" && $0.kind == .end })
    #expect(refusedEnd.fields["pixelformat"] == nil, "\(refusedEnd.fields)")
  }
}
