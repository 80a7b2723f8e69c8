import Testing

@testable import CaptureKit

@Suite struct DeliveryAfterStopCounterTests {
  static let frame = VideoFrame(width: 1, height: 1, pixels: [0], sequence: 0, captureTime: 0)

  @Test("a delivery before the stop returned is not counted, one after it is")
  func countsOnlyAfterTheStop() {
    let counter = DeliveryAfterStopCounter()
    let gate = counter.gate()
    gate.deliver(Self.frame) { _ in }
    gate.stopReturned(fromDelivery: false)
    #expect(counter.framesDeliveredAfterStop == 0)
    gate.deliver(Self.frame) { _ in }
    #expect(counter.framesDeliveredAfterStop == 1)
  }

  @Test("a delivery still running when the stop returns is counted, unless the stop came from it")
  func countsADeliveryInFlight() {
    let counter = DeliveryAfterStopCounter()
    let gate = counter.gate()
    gate.deliver(Self.frame) { _ in gate.stopReturned(fromDelivery: true) }
    #expect(counter.framesDeliveredAfterStop == 0)
    let other = counter.gate()
    other.deliver(Self.frame) { _ in other.stopReturned(fromDelivery: false) }
    #expect(counter.framesDeliveredAfterStop == 1, "the stop returned while this delivery ran")
  }
}
