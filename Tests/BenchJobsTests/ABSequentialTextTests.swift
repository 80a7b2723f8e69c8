import BenchJobs
import ResultsSchema
import TestSupport
import Testing

/// What a sequential `bench ab` prints of its design: α and, over several cells, its split.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct ABSequentialTextTests {
  static func record(gatedCells: Int?) -> BenchResults.SequentialAB {
    BenchResults.SequentialAB(
      phase: "first_frame_observed", pairsPerLook: 4, looks: 9, spending: "pocock", alpha: 0.01,
      gatedCells: gatedCells, beta: 0.05, threshold: 0.05, powerShift: 0.10,
      efficacyBounds: Array(repeating: 3.3, count: 9), equivalenceBounds: Array(repeating: 2.2, count: 9),
      cells: [])
  }

  @Test("two cells: α = 0.01 over 2 cells, 0.005 a cell, printed and recorded")
  func split() {
    let two = Self.record(gatedCells: 2)
    #expect(two.cellAlpha == 0.005)
    let text = ABJob.sequentialText(two)
    #expect(text.contains("Pocock-type spending, α = 0.01 over 2 cells: 0.005 a cell, β = 0.05,"), "\(text)")
    #expect(ABJob.sequentialText(Self.record(gatedCells: 8)).contains("over 8 cells: 0.00125 a cell"))
  }

  @Test("one cell, or a record from before the split, prints α alone")
  func single() {
    for cells in [1, nil] as [Int?] {
      let text = ABJob.sequentialText(Self.record(gatedCells: cells))
      #expect(text.contains("spending, α = 0.01, β = 0.05,"), "\(text)")
    }
    #expect(Self.record(gatedCells: nil).cellAlpha == nil)
  }
}
