import Statistics
import Testing

@Suite struct BootstrapDropTests {
  @Test("the bootstrap counts the resamples it dropped (a zero median) and keeps the interval when few were")
  func fewDropped() throws {
    // One zero in nine: a resample's median is 0 only with five or more zeros (about 0.14 %).
    let den: [Double] = [0, 50, 52, 54, 56, 58, 60, 62, 64]
    let num = den.map { $0 + 10 }
    let ci = Bootstrap.ratioOfMediansInterval(numerator: num, denominator: den)
    let kept = Bootstrap.ratioOfMediansReplicates(numerator: num, denominator: den).count
    #expect(ci.resamples == Bootstrap.defaultResamples)
    #expect(ci.droppedResamples == Bootstrap.defaultResamples - kept)
    #expect((1...40).contains(try #require(ci.droppedResamples)))
    #expect(ci.lower.isFinite && ci.upper.isFinite)
  }

  @Test("the bootstrap refuses (NaN bounds) when more than 1 % of its resamples were dropped")
  func refusesWhenTooMany() {
    // Eight zeros in twenty: about one resample in eight has a zero median.
    let den = [Double](repeating: 0, count: 8) + (0..<12).map { 60 + Double($0) }
    let num = (0..<20).map { 68 + Double($0) * 0.3 }
    let ci = Bootstrap.ratioOfMediansInterval(numerator: num, denominator: den)
    #expect(ci.lower.isNaN && ci.upper.isNaN)
    #expect(ci.droppedResamples ?? 0 > 40)
    #expect(ci.isRefused)
  }
}
