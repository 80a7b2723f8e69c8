/// A finished movie file.
public struct RecordedMovie: Sendable, Hashable {
  /// Where it was written.
  public var path: String
  /// Frames in the file.
  public var frames: Int
  /// Frames discarded because the file queue fell behind.
  public var droppedFrames: Int
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int
  /// The frame rate in the header, frames per second.
  public var frameRate: Double

  /// Creates a description of a movie file.
  public init(path: String, frames: Int, droppedFrames: Int, width: Int, height: Int, frameRate: Double) {
    self.path = path
    self.frames = frames
    self.droppedFrames = droppedFrames
    self.width = width
    self.height = height
    self.frameRate = frameRate
  }
}
