/// The phase names of results (DESIGN.md "Phase events"), spelled once.
public enum PhaseName {
  public static let processLaunch = "process_launch"
  public static let uiReady = "ui_ready"
  public static let sessionConfigure = "session_configure"
  public static let startRunning = "start_running"
  public static let firstFramePresented = "first_frame_presented"
  public static let firstFrameObserved = "first_frame_observed"
  public static let deferredStart = "deferred_start"
  public static let firstFrameToDeferredDone = "first_frame_to_deferred_done"
  public static let shutterToPhoto = "shutter_to_photo"
  public static let secondaryUI = "secondary_ui"
  /// Device phases, reported when the camera writes `device.*` events (V4L2 does):
  /// open, format negotiation, buffer set-up, stream-on, and stream-on → first buffer.
  public static let deviceOpen = "device_open"
  public static let deviceFormat = "device_format"
  public static let deviceBuffers = "device_buffers"
  public static let deviceStreamOn = "device_stream_on"
  public static let deviceFirstBuffer = "device_first_buffer"
  /// The device phases, in order.
  public static let device = [deviceOpen, deviceFormat, deviceBuffers, deviceStreamOn, deviceFirstBuffer]

  /// Every duration phase of DESIGN.md, in timeline order.
  public static let all = [
    processLaunch, uiReady, sessionConfigure, startRunning, firstFramePresented, firstFrameObserved,
    deferredStart, firstFrameToDeferredDone, shutterToPhoto, secondaryUI,
  ]
}
