#if canImport(Glibc)
  import Glibc
#endif
import CaptureKit
import CommandLineKit
import Dispatch
import Display
import LaunchContract
import PhaseTrace
import Synchronization
import SystemCalls

/// The reference camera app (issue 2): the program `bench` launches again and again.
///
/// Two parts, as in AVCam: ``CaptureService`` owns the session on its own serial queue, and
/// ``CameraModel`` holds the one ``AppStatus`` that control handling, the lock cover and the
/// secondary UI (``CameraScreen``) read. This type is only the entry point that wires them.
///
/// Launch order, as the seeds teach it:
/// 1. `app.main`, then the preview surface is created (the minimum UI) → `ui.ready`.
/// 2. On the capture queue, never the main thread: `session.configure` (one commit) and
///    `session.start_running`. The preview output presents the first frame (`preview.first_present`).
/// 3. Deferred outputs initialise after the first present (`deferred_start.will`/`.did`).
/// 4. Secondary UI (thumbnail well, mode picker) and the system-pressure poll start only once the
///    launch has settled — the first preview frame presented and deferred start done →
///    `ui.secondary_visible`: their work must not compete with those for the CPU.
/// The main thread only runs the main queue; it never waits on the camera.
package enum CameraApp {
  /// When `main` was reached (CLOCK_MONOTONIC ns): `app.main`'s time, taken before anything else.
  static let mainReachedAt = Atomic<UInt64>(0)

  /// Runs the app with `arguments` (without the program name): `CameraAppCommand` answers
  /// `--help` and turns a bad command line into one line and exit status 2, then launches. Never
  /// returns.
  package static func main(arguments: [String]) -> Never {
    mainReachedAt.store(MonotonicClock.now(), ordering: .relaxed)
    exit(CameraAppCommand.main(arguments))
  }

  /// Launches the app with its parsed command line. Never returns.
  static func launch(_ options: AppOptions) -> Never {
    let launchedAt = mainReachedAt.load(ordering: .relaxed)
    PlantedRegression.readStartupAsset()  // inert unless a planted-regression commit set it
    let environment: LaunchEnvironment
    let writer: TraceWriter?
    do {
      environment = try LaunchEnvironment.current()
    } catch {
      terminate(.usage(error.message))
    }
    do {
      writer = try TraceWriter.from(environment)
    } catch {
      terminate(.usage(error.description))
    }
    let signposter = writer.map { Signposter(sink: $0) } ?? .disabled
    signposter.event(.appMain, fields: ["run": .string(environment.runID ?? "")], at: launchedAt)

    // The minimum UI: the surface preview presents into. Nothing else happens before the
    // capture queue is started.
    let preview: CoverableDisplay
    do {
      preview = CoverableDisplay(try openSurface(environment))
    } catch {
      terminate(.usage("cannot open the display: \(error)"))
    }
    if options.splash { preview.present(SplashImage.frame(width: 640, height: 360)) }
    let library = PhotoLibrary.standard(environment: environment)
    let model = CameraModel(
      capture: CaptureService(
        options: options, injectedDelayMilliseconds: environment.injectDelayMilliseconds,
        signposter: signposter, preview: preview),
      screen: CameraScreen(
        preview: preview, coversOnLock: !options.noCover, library: library, signposter: signposter),
      library: library, signposter: signposter, terminate: { @Sendable in terminate($0) })
    signposter.event(.uiReady)

    model.launch()
    if let endpoint = environment.control {
      do {
        try model.listen(to: endpoint)
      } catch {
        model.fail(error)
      }
    }
    let signals = SignalHandlers(signals: [SIGTERM, SIGINT, SIGHUP]) { @Sendable _ in model.quit() }
    if let seconds = options.durationSeconds {
      DispatchQueue.main.asyncAfter(deadline: .now() + seconds) { @Sendable in model.quit() }
    }
    withExtendedLifetime(signals) { () -> Never in
      clearStackPoisoning()
      dispatchMain()
    }
  }

  /// Under AddressSanitizer, clears the calling thread's stack poisoning, as ASan does before a
  /// call that does not return; does nothing in a normal build. The corresponding call is
  /// `__asan_handle_no_return`, looked up with `dlsym` (only a sanitized build has it).
  ///
  /// For dispatchMain(): on Linux it ends the main thread with pthread_exit, which unwinds past
  /// this app's frames without returning through them (their stack poisoning stays), then parks
  /// the thread in sigsuspend with every signal open, on that same stack. libdispatch's SIGTERM
  /// handler then ran there over the stale poisoning — a false stack-buffer-overflow in its
  /// `_dispatch_sigmask` that ended camera-app with status 1 (scripts/asan-dispatch-main-repro).
  static func clearStackPoisoning() {
    guard let symbol = dlsym(nil, "__asan_handle_no_return") else { return }
    unsafeBitCast(symbol, to: (@convention(c) () -> Void).self)()
  }

  /// Ends the process: exit status 0 after a quit (`failure` nil); otherwise the failure's line on
  /// stderr and its exit status.
  static func terminate(_ failure: AppError?) -> Never {
    guard let failure else { exit(0) }
    StandardError.writeLine(failure.message)
    exit(failure.exitStatus)
  }
}
