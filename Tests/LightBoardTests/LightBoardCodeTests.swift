@testable import LightBoard
import Testing

@Suite struct LightBoardCodeTests {
  @Test("the check code is CRC-16/CCITT-FALSE (known answers from Python's binascii.crc_hqx)")
  func crcKnownAnswers() {
    #expect(LightBoardCode.crc16(payload56: 0x01_2345_6789_ABCD) == 0xE429)
    // "1234567" as 7 bytes.
    #expect(LightBoardCode.crc16(payload56: 0x31_3233_3435_3637) == 0x7718)
  }

  @Test("the code word carries time, marker and step in order, most significant bit first")
  func wordLayout() {
    let word = LightBoardCode.word(microseconds: 1, step: 31)
    // Time bit 47 is the last time bit (index 47); marker 101 at 48…50; step 11111 at 51…55.
    #expect(LightBoardCode.bit(47, of: word))
    #expect((0..<47).allSatisfy { !LightBoardCode.bit($0, of: word) })
    #expect(
      LightBoardCode.bit(48, of: word) && !LightBoardCode.bit(49, of: word)
        && LightBoardCode.bit(50, of: word))
    #expect((51..<56).allSatisfy { LightBoardCode.bit($0, of: word) })
  }
}
