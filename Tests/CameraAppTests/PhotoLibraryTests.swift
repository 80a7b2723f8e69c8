import CaptureKit
import Foundation
import TestSupport
import Testing

@testable import CameraApp

@Suite struct PhotoLibraryTests {
  @Test("a PGM photo decodes into an area-averaged thumbnail")
  func thumbnail() throws {
    let (w, h) = (8, 4)
    var pgm = Array("P5\n\(w) \(h)\n255\n".utf8)
    // Left half black, right half white.
    for _ in 0..<h { pgm += [UInt8](repeating: 0, count: w / 2) + [UInt8](repeating: 255, count: w / 2) }
    let thumb = try #require(PhotoLibrary.decodeThumbnail(pgm: pgm, side: 2))
    #expect(thumb == [0, 255, 0, 255])
  }

  @Test("truncated or foreign files give no thumbnail instead of a crash")
  func rejectsBadFiles() {
    #expect(PhotoLibrary.decodeThumbnail(pgm: Array("P5\n8 4\n255\n".utf8) + [1, 2, 3], side: 2) == nil)
    #expect(PhotoLibrary.decodeThumbnail(pgm: Array("P6\n1 1\n255\nabc".utf8), side: 1) == nil)
    #expect(PhotoLibrary.decodeThumbnail(pgm: [], side: 1) == nil)
    #expect(PhotoLibrary.decodeThumbnail(pgm: Array("P5\n99999999 4\n255\n".utf8), side: 1) == nil)
  }

  @Test("every truncation of a photo's header or pixels gives no thumbnail instead of a crash")
  func truncatedHeaders() {
    let (w, h) = (6, 4)
    let pgm = Array("P5\n\(w) \(h)\n255\n".utf8) + [UInt8](repeating: 128, count: w * h)
    #expect(PhotoLibrary.decodeThumbnail(pgm: pgm, side: 2) == [128, 128, 128, 128])
    for length in 0..<pgm.count {
      #expect(PhotoLibrary.decodeThumbnail(pgm: Array(pgm.prefix(length)), side: 2) == nil, "\(length) bytes")
    }
    #expect(PhotoLibrary.decodeThumbnail(pgm: Array("P5\n6 4".utf8), side: 2) == nil)
    #expect(PhotoLibrary.decodeThumbnail(pgm: Array("P5 6".utf8), side: 2) == nil)
    #expect(PhotoLibrary.decodeThumbnail(pgm: Array("P5    ".utf8), side: 2) == nil)
  }

  static func photo() -> CapturedPhoto {
    CapturedPhoto(
      settingsID: 1, width: 4, height: 2, pixels: [UInt8](repeating: 9, count: 8), captureTime: 0,
      requestedAt: 0, deliveredAt: 0, metadata: [:], wasResponsiveCapture: false)
  }

  @Test(
    "a photo folder another user made first is not used: the photo is not saved there",
    .enabled(if: ForeignFolder.canPlant, Prerequisites.cannotPlant))
  func foreignFolder() throws {
    let base = temporaryFolder("photo-library")
    defer { try? FileManager.default.removeItem(atPath: base) }
    let folder = base + "/app"
    try #require(ForeignFolder.plant(at: folder))
    defer { ForeignFolder.remove(folder) }
    let library = PhotoLibrary(folder: folder)
    #expect(throws: (any Error).self) { try library.save(Self.photo()) }
    #expect(access(library.lastPhotoPath, F_OK) != 0)
    #expect(ForeignFolder.stillPlanted(at: folder))
  }

  @Test("a photo folder made here is private (mode 0700) and keeps the photo")
  func ownFolder() throws {
    let base = temporaryFolder("photo-library")
    defer { try? FileManager.default.removeItem(atPath: base) }
    let library = PhotoLibrary(folder: base + "/state/app")
    try library.save(Self.photo())
    #expect(library.loadThumbnail(side: 2) == [9, 9, 9, 9])
    var st = stat()
    #expect(lstat(base + "/state/app", &st) == 0 && st.st_mode & 0o777 == 0o700)
  }

  @Test("the mode picker draws something for every mode")
  func picker() {
    let strip = SecondaryUI.renderPicker(width: 640, height: 48)
    #expect(strip.contains(255))
  }
}
