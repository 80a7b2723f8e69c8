import CaptureKit
import Display
import LaunchContract
import SystemCalls

/// The shared-memory surface as camera-app presents to it: the surface bench created (by
/// descriptor, `fd:N`, or by name), or a private surface when nothing names a display.
enum SharedMemoryPresentingDisplay: PresentingDisplay {
  static var server: DisplayServerKind { .sharedMemory }

  static func open(_ target: DisplayTarget) throws -> any DisplaySink {
    switch target {
    case .sharedMemory(let name): return try SharedMemoryDisplay.open(name: name)
    case .surfaceDescriptor(let fd):
      // The mapping keeps the surface; the descriptor is closed so nothing the app starts inherits it.
      defer { FileDescriptorIO.close(fd) }
      return try SharedMemoryDisplay.open(descriptor: fd)
    default: throw DisplayError(.invalidArgument, "\(target) is not a shared-memory surface")
    }
  }

  /// A private surface (640×360): the last resort, so it always opens one.
  static func openFromHostEnvironment() throws -> (any DisplaySink)? {
    try SharedMemoryDisplay.createPrivate(width: 640, height: 360)
  }
}
