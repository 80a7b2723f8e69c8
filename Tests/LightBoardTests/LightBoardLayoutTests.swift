import LightBoard
import Testing

@Suite struct LightBoardLayoutTests {
  @Test(
    "every block and bar slot lies inside the image and the two regions do not overlap",
    arguments: [(160, 120), (320, 240), (640, 480), (1280, 720), (1920, 1080), (333, 251)])
  func insideAndDisjoint(width: Int, height: Int) {
    let layout = LightBoard.layout(width: width, height: height)
    func inside(_ r: LightBoardRect) -> Bool {
      r.x >= 0 && r.y >= 0 && r.width > 0 && r.height > 0 && r.x + r.width <= width
        && r.y + r.height <= height
    }
    #expect(inside(layout.barTrack) && inside(layout.codeBand))
    #expect(layout.barTrack.y + layout.barTrack.height <= layout.codeBand.y)
    var x = layout.barTrack.x
    for step in 0..<LightBoardLayout.barPeriod {
      let slot = layout.barSlot(step)
      #expect(inside(slot) && slot.x == x)
      x = slot.x + slot.width
    }
    #expect(x == layout.barTrack.x + layout.barTrack.width)
    for row in 0..<LightBoardLayout.codeRows {
      for column in 0..<LightBoardLayout.codeColumns {
        #expect(inside(layout.codeBlock(row: row, column: column)))
      }
    }
  }

  @Test("the layout scales with the image: half the size gives half the positions (within a pixel)")
  func scales() {
    let full = LightBoard.layout(width: 1280, height: 720)
    let half = LightBoard.layout(width: 640, height: 360)
    let a = full.codeBlock(row: 3, column: 17)
    let b = half.codeBlock(row: 3, column: 17)
    #expect(abs(a.x / 2 - b.x) <= 1 && abs(a.y / 2 - b.y) <= 1)
  }
}
