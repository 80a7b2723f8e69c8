// PLACEHOLDER until the light board lands (issue 2).
enum LightBoardDecoder {
  static func decode(_ image: LumaImage) -> LightBoardReading { .noBoard }
}
