/// A rectangle of pixels in a light-board layout: columns `x ..< x + width`, rows `y ..< y + height`.
public struct LightBoardRect: Sendable, Hashable {
  /// The left column, in pixels.
  public var x: Int
  /// The top row, in pixels.
  public var y: Int
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int

  /// Creates a rectangle.
  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// The centre column (rounded down).
  public var midX: Int { x + width / 2 }
  /// The centre row (rounded down).
  public var midY: Int { y + height / 2 }
}
