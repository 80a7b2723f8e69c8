import Foundation
import SystemCalls
import TestSupport
import Testing

@testable import CameraApp

#if canImport(Glibc)
  import Glibc
#endif

/// The cold-only planted regression (`PLANTED_KIND=cold scripts/planted-slowdown-check`, issue 37
/// item 2): camera-app pages in a start-up asset that a warm launch finds in the page cache. The
/// asset must be made once and kept where the app user can write it: beside the executable (the
/// build cache, root's) nobody could, so every launch made the 256 MiB again in memory and failed
/// to keep it — a uniform CPU cost of about 380 ms in warm launches too, not a cold-only one.
@Suite struct PlantedStartupAssetTests {
  @Test("the asset is kept in a folder every app user can write, and not beside the executable")
  func assetFolder() throws {
    let folder = PlantedRegression.assetFolder
    var info = stat()
    #expect(stat(folder, &info) == 0)
    #expect(
      info.st_mode & S_IWOTH != 0 && info.st_mode & S_ISVTX != 0, "\(folder) is not world-writable and sticky"
    )
    #expect(
      PlantedRegression.assetPath(megabytes: 1) == folder + "/firstframe-planted-startup-asset-1MiB.bin")
  }

  @Test("made once, then read; a folder that cannot keep it makes nothing and reads nothing")
  func madeOnceThenRead() throws {
    let folder = temporaryFolder("planted-asset")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(PlantedRegression.readStartupAsset(megabytes: 1, folder: folder) == .written)
    let path = folder + "/firstframe-planted-startup-asset-1MiB.bin"
    #expect(FileManager.default.fileExists(atPath: path))
    #expect(PlantedRegression.readStartupAsset(megabytes: 1, folder: folder) == .read)
    // A file of another size is made again.
    try Data(count: 10).write(to: URL(fileURLWithPath: path))
    #expect(PlantedRegression.readStartupAsset(megabytes: 1, folder: folder) == .written)
    // Nowhere to keep it (even root cannot create a file in /proc): nothing is made.
    #expect(PlantedRegression.readStartupAsset(megabytes: 1, folder: "/proc/self") == .unwritable)
    #expect(PlantedRegression.readStartupAsset(megabytes: 0, folder: folder) == .off)
  }
}
